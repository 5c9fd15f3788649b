import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import { onFirstUse } from '../lazy.ts';
import { mailQueued } from '../metrics.ts';
import type { MailType, ProductMailType } from './templates.ts';

/**
 * Outgoing mail. With SMTP_HOST set, messages go to that server through nodemailer. Without it (a
 * local run) each message is written to DATA_DIR/mail/ as `<timestamp>-<id>.eml` with a `.json`
 * beside it and its link is logged, so whoever runs the server can click it and browser tests can
 * read it (docs/decisions/015-auth-mail-delivery.md).
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  type: MailType | ProductMailType;
  actionUrl: string | null;
}

/** The `.json` written beside each outbox message. */
export interface OutboxRecord {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  type: MailType | ProductMailType;
  action_url: string | null;
  created_at: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  /** Resolves once the message is accepted (by the SMTP server, or on disk). */
  deliver(message: MailMessage): Promise<string>;
  close(): Promise<void>;
}

function fromAddress(config: Config): string {
  const name = config.smtp.senderName.replace(/["\\\r\n]/g, '');
  return `"${name}" <${config.smtp.adminEmail}>`;
}

/** nodemailer loads with the first message, not at start-up (decision 086). */
const nodemailer = onFirstUse(async () => (await import('nodemailer')).default);

export function createSmtpMailer(config: Config): Mailer {
  let transport: Transporter | undefined;
  const open = onFirstUse(async () => {
    transport = (await nodemailer()).createTransport({
      host: config.smtp.host,
      port: config.smtp.port,
      secure: config.smtp.port === 465,
      auth: config.smtp.user ? { user: config.smtp.user, pass: config.smtp.pass ?? '' } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return transport;
  });
  return {
    kind: 'smtp',
    async deliver(message) {
      const id = randomUUID();
      await (await open()).sendMail({
        from: fromAddress(config),
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: `<${id}@${new URL(config.siteUrl).hostname}>`,
        headers: { 'X-HighGrade-Mail-Type': message.type },
      });
      return id;
    },
    async close() {
      transport?.close();
    },
  };
}

/**
 * Addresses of accounts erased in the last minutes in this process, as SHA-256 hashes with the time:
 * a mail to one of them that was already on its way when the account was deleted (an auth mail in the
 * send queue, a queued product mail being sent) is not left in the outbox (issue 13, decision 104).
 */
const erased = new Map<string, number>();
const ERASED_KEPT_MS = 10 * 60_000;

/** How an erased address is known in this process and in `auth.erased_mail`. */
export function addressHash(address: string): string {
  return createHash('sha256').update(address.trim().toLowerCase()).digest('hex');
}

/** Marks addresses as erased (call after the deletion committed, before removing their mails). */
export function markErased(addresses: readonly string[]): void {
  markErasedHashes(addresses.map(addressHash));
}

/** Marks addresses erased, known by their hashes (as another process recorded them). */
export function markErasedHashes(hashes: readonly string[]): void {
  const now = Date.now();
  for (const [hash, at] of erased) if (now - at > ERASED_KEPT_MS) erased.delete(hash);
  for (const hash of hashes) erased.set(hash, now);
}

function isErased(address: string): boolean {
  const at = erased.get(addressHash(address));
  return at !== undefined && Date.now() - at <= ERASED_KEPT_MS;
}

export function createOutboxMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const dir = join(config.dataDir, 'mail');
  const builder = onFirstUse(async () =>
    (await nodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    kind: 'outbox',
    async deliver(message) {
      const id = randomUUID();
      if (isErased(message.to)) {
        log.info({ mail: { id, type: message.type } }, 'mail to an erased account dropped');
        return id;
      }
      const created = new Date();
      const info = await (await builder()).sendMail({
        from: fromAddress(config),
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        date: created,
        messageId: `<${id}@${new URL(config.siteUrl).hostname}>`,
        headers: { 'X-HighGrade-Mail-Type': message.type },
      });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // ISO 8601 with the colons replaced, so the names sort by time and are valid on every file system.
      const base = join(dir, `${created.toISOString().replaceAll(':', '-')}-${id}`);
      const record: OutboxRecord = {
        id,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        type: message.type,
        action_url: message.actionUrl,
        created_at: created.toISOString(),
      };
      await writeFile(`${base}.eml`, info.message as Buffer, { mode: 0o600 });
      // The .json appears last and atomically: a reader that sees it also finds the .eml complete.
      await writeFile(`${base}.json.tmp`, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
      await rename(`${base}.json.tmp`, `${base}.json`);
      if (isErased(message.to)) {
        // Erased while it was being written, after the deletion's sweep looked: remove it now.
        await rm(`${base}.eml`, { force: true });
        await rm(`${base}.json`, { force: true });
        log.info({ mail: { id, type: message.type } }, 'mail to an erased account removed');
        return id;
      }
      log.info(
        { mail: { id, to: message.to, type: message.type, action_url: message.actionUrl } },
        `mail "${message.subject}" to ${message.to} written to ${base}.eml${message.actionUrl ? `; link: ${message.actionUrl}` : ''}`,
      );
      return id;
    },
    async close() {},
  };
}

/**
 * Removes the outbox's mails to these addresses (an erased account's, decision 097): both files of each,
 * the record last, so a reader never finds a record without its message. Returns how many went.
 */
export async function forgetOutboxMail(dataDir: string, addresses: readonly string[]): Promise<number> {
  return forgetOutboxMailByHash(dataDir, addresses.map(addressHash));
}

/** forgetOutboxMail for addresses known by their hashes (`addressHash`). */
export async function forgetOutboxMailByHash(dataDir: string, hashes: readonly string[]): Promise<number> {
  const wanted = new Set(hashes);
  if (wanted.size === 0) return 0;
  const dir = join(dataDir, 'mail');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names.filter((entry) => entry.endsWith('.json'))) {
    const base = join(dir, name.slice(0, -'.json'.length));
    let record: Partial<OutboxRecord>;
    try {
      record = JSON.parse(await readFile(`${base}.json`, 'utf8')) as Partial<OutboxRecord>;
    } catch {
      continue; // removed meanwhile, or not ours
    }
    if (typeof record.to !== 'string' || !wanted.has(addressHash(record.to))) continue;
    await rm(`${base}.eml`, { force: true });
    await rm(`${base}.json`, { force: true });
    removed += 1;
  }
  return removed;
}

export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  return config.smtp.host ? createSmtpMailer(config) : createOutboxMailer(config, log);
}

/**
 * Delivery happens after the response: an answer never waits on (or reveals, by its timing) a mail
 * server, and a failed delivery is logged with the message kind and recipient. `idle()` lets shutdown
 * wait for mails still in flight.
 */
export class MailQueue {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly mailer: Mailer,
    private readonly log: FastifyBaseLogger,
  ) {}

  enqueue(message: MailMessage): void {
    mailQueued.inc();
    const delivery = this.mailer
      .deliver(message)
      .catch((error) =>
        this.log.error({ err: error, to: message.to, type: message.type }, 'mail delivery failed'),
      )
      .finally(() => {
        mailQueued.dec();
        this.pending.delete(delivery);
      });
    this.pending.add(delivery);
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    await this.idle();
    await this.mailer.close();
  }
}
