import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createOutboxMailer, type MailMessage, markErased } from './mailer.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A logger that keeps nothing (what the outbox logs is not under test here). */
const quiet = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  level: 'silent',
  child: () => quiet,
} as unknown as FastifyBaseLogger;

async function outbox() {
  const dataDir = await mkdtemp(join(tmpdir(), 'hg-mailer-'));
  dirs.push(dataDir);
  const mailer = createOutboxMailer(loadConfig({ DATA_DIR: dataDir }), quiet);
  const files = async () => readdir(join(dataDir, 'mail')).catch(() => [] as string[]);
  return { mailer, files };
}

function mailTo(to: string): MailMessage {
  return {
    to,
    subject: 'Reset your password',
    text: 'Link',
    html: '<p>Link</p>',
    type: 'recovery',
    actionUrl: null,
  };
}

// Issue 13, decision 104: a mail on its way when its recipient's account is erased does not stay behind.
describe('the outbox and erased accounts', () => {
  it('writes mail to other addresses as before', async () => {
    const { mailer, files } = await outbox();
    markErased(['gone-1@example.com']);
    await mailer.deliver(mailTo('still-here@example.com'));
    expect((await files()).filter((name) => name.endsWith('.json'))).toHaveLength(1);
  });

  it('drops a mail whose recipient was erased before it was written (any case)', async () => {
    const { mailer, files } = await outbox();
    markErased(['Gone-2@Example.com']);
    await mailer.deliver(mailTo('gone-2@example.com'));
    expect(await files()).toEqual([]);
  });

  it('removes a mail whose recipient was erased while it was being written', async () => {
    const { mailer, files } = await outbox();
    const delivery = mailer.deliver(mailTo('gone-3@example.com'));
    markErased(['gone-3@example.com']);
    await delivery;
    expect(await files()).toEqual([]);
  });
});
