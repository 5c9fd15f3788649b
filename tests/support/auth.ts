import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from './test-server.ts';

/**
 * Helpers for the auth service's tests: a server whose SITE_URL is its own address (so mailed links
 * and OAuth callbacks point at it), the mail outbox, and supabase-js clients as Node uses them.
 */

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Limits high enough that a test file's own traffic never trips them (rate limits have own tests). */
export const RELAXED_LIMITS: Record<string, string> = {
  RATE_LIMIT_EMAIL_SENT: '100000',
  RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
  RATE_LIMIT_TOKEN_REFRESH: '100000',
  RATE_LIMIT_VERIFY: '100000',
  RATE_LIMIT_OTP: '100000',
  RATE_LIMIT_EMAIL_PER_CLIENT: '100000',
  RATE_LIMIT_EMAIL_PER_RECIPIENT: '100000',
  SIGN_IN_FAILURES_BEFORE_DELAY: '1000',
  SMTP_MAX_FREQUENCY: '0',
};

export interface AuthTestServer extends TestServer {
  siteUrl: string;
}

export async function startAuthServer(env: Record<string, string> = {}): Promise<AuthTestServer> {
  let lastError: unknown;
  // The port is chosen before the server binds it; on the rare collision, try another.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = await freePort();
    const siteUrl = `http://127.0.0.1:${port}`;
    try {
      const server = await startTestServer({
        ...RELAXED_LIMITS,
        SITE_URL: siteUrl,
        ...env,
        PORT: String(port),
      });
      return { ...server, siteUrl };
    } catch (error) {
      lastError = error;
      if (!String((error as Error).message).includes('already in use')) throw error;
    }
  }
  throw lastError;
}

export function clientFor(
  server: Pick<TestServer, 'url' | 'anonKey'>,
  options: { key?: string; flowType?: 'implicit' | 'pkce' } = {},
): SupabaseClient {
  return createClient(server.url, options.key ?? server.anonKey, {
    auth: {
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      flowType: options.flowType ?? 'implicit',
    },
    realtime: { transport: WebSocket as never },
  });
}

export function adminClient(server: Pick<TestServer, 'url' | 'serviceRoleKey'>): SupabaseClient {
  return createClient(server.url, server.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  type: string;
  action_url: string | null;
  created_at: string;
  /** Name of the .eml file beside the record. */
  file: string;
}

export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = join(dataDir, 'mail');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const mails: OutboxMail[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const record = JSON.parse(await readFile(join(dir, name), 'utf8')) as Omit<OutboxMail, 'file'>;
    mails.push({ ...record, file: name.replace(/\.json$/, '.eml') });
  }
  return mails;
}

/** Waits until a mail matching `match` is in the outbox (delivery happens after the response). */
export async function waitForMail(
  dataDir: string,
  match: (mail: OutboxMail) => boolean,
  timeoutMs = 10_000,
): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readOutbox(dataDir)).filter(match);
    if (found.length > 0) return found[found.length - 1] as OutboxMail;
    if (Date.now() > deadline) throw new Error('no matching mail arrived in the outbox');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The one-time code printed in a mail's text. */
export function codeOf(mail: Pick<OutboxMail, 'text'>): string {
  const match = /code: (\d{6,10})/i.exec(mail.text);
  if (!match?.[1]) throw new Error('no code in the mail');
  return match[1];
}

/** Follows one redirect step without following it: the Location header. */
export async function locationOf(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; location: string }> {
  const response = await fetch(url, { ...init, redirect: 'manual' });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location') ?? '' };
}

/** Parameters of a URL fragment (the implicit flow's tokens, or an error). */
export function fragmentOf(url: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(new URL(url).hash.slice(1)));
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}@example.com`;
}
