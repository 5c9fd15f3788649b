import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Helpers for the auth service's tests that need no server code: the mail outbox (DATA_DIR/mail),
 * the codes and links in mails, and redirects. Servers: tests/support/server-process.ts (black box)
 * or test-server.ts (in process); clients: clients.ts; accounts: users.ts.
 */

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
