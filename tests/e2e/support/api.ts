import { randomBytes, randomInt } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createClient, type Session, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { createUser } from '#tests/support/users.ts';
import { waitForApp } from './app.ts';

/** The server under test, as the global setup (or a test's own server) describes it. */
export interface ServerInfo {
  url: string;
  dataDir: string;
  anonKey: string;
  serviceRoleKey: string;
}

export function serverFromEnv(): ServerInfo | null {
  const { E2E_BASE_URL, E2E_DATA_DIR, E2E_ANON_KEY, E2E_SERVICE_ROLE_KEY } = process.env;
  if (!E2E_BASE_URL || !E2E_DATA_DIR || !E2E_ANON_KEY || !E2E_SERVICE_ROLE_KEY) return null;
  return {
    url: E2E_BASE_URL,
    dataDir: E2E_DATA_DIR,
    anonKey: E2E_ANON_KEY,
    serviceRoleKey: E2E_SERVICE_ROLE_KEY,
  };
}

/** A client address of its own (the server trusts X-Forwarded-For from loopback, see support/server.ts). */
export function randomClientAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.com`;
}

function client(server: ServerInfo, key: string): SupabaseClient {
  return createClient(server.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'x-forwarded-for': randomClientAddress() } },
    realtime: { transport: WebSocket as never },
  });
}

/** The service-role client: arranges data and checks results (it bypasses row-level security). */
export function adminClient(server: ServerInfo): SupabaseClient {
  return client(server, server.serviceRoleKey);
}

export interface Member {
  id: string;
  email: string;
  password: string;
  fullName: string;
}

/** A confirmed account, made through the admin API (the sign-up screen has tests of its own). */
export async function createMember(
  server: ServerInfo,
  options: { email?: string; fullName?: string; password?: string } = {},
): Promise<Member> {
  const fullName = options.fullName ?? 'Test Member';
  const user = await createUser(server, {
    email: options.email ?? uniqueEmail('member'),
    password: options.password ?? `pw-${randomBytes(6).toString('hex')}`,
    fullName,
  });
  return { ...user, fullName };
}

export async function deleteMember(server: ServerInfo, member: { id: string }): Promise<void> {
  await adminClient(server).auth.admin.deleteUser(member.id);
}

/** A session for the member, from the password grant in Node (not through the page). */
export async function sessionOf(server: ServerInfo, member: Member): Promise<Session> {
  const { data, error } = await client(server, server.anonKey).auth.signInWithPassword({
    email: member.email,
    password: member.password,
  });
  if (error || !data.session) throw error ?? new Error('no session');
  return data.session;
}

/** supabase-js's localStorage key for the server (see web/src/lib/supabase.ts). */
export function authStorageKey(url: string): string {
  return `sb-${new URL(url).hostname.split('.')[0]}-auth-token`;
}

/**
 * Stores a session where supabase-js keeps it before the page's first script runs, as a previous
 * visit would have left it. Once per tab: a later sign-out stays signed out across reloads.
 */
export async function seedSession(page: Page, server: ServerInfo, session: object): Promise<void> {
  await page.addInitScript(
    ([key, value]) => {
      if (window.sessionStorage.getItem('e2e-session-seeded')) return;
      window.sessionStorage.setItem('e2e-session-seeded', '1');
      window.localStorage.setItem(key as string, value as string);
    },
    [authStorageKey(server.url), JSON.stringify(session)],
  );
}

/** Signs the page in as the member (a session from the password grant, stored), then opens `path`. */
export async function openSignedIn(
  page: Page,
  server: ServerInfo,
  member: Member,
  path = '/',
): Promise<Session> {
  const session = await sessionOf(server, member);
  await seedSession(page, server, session);
  await page.goto(`${server.url}${path}`);
  await waitForApp(page);
  return session;
}

export interface OutboxMail {
  to: string;
  subject: string;
  type: string;
  action_url: string | null;
  created_at: string;
}

/** Waits for a mail of `type` to `to` in the server's outbox (DATA_DIR/mail/*.json). */
export async function waitForMail(server: ServerInfo, to: string, type: string, timeoutMs = 10_000) {
  const dir = join(server.dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let names: string[] = [];
    try {
      names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
    } catch {
      // No mail yet.
    }
    for (const name of names.reverse()) {
      const mail = JSON.parse(await readFile(join(dir, name), 'utf8')) as OutboxMail;
      if (mail.to === to && mail.type === type) return mail;
    }
    if (Date.now() > deadline) throw new Error(`no ${type} mail to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls until `check` returns a value other than undefined. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
