import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSpecialAddress, OutboundError, type OutboundOptions, safeGet } from './outbound.ts';

let server: Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  server = createServer((_request, response) => {
    hits += 1;
    response.end('secret');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const options: OutboundOptions = {
  allowPrivateHosts: false,
  timeoutMs: 2000,
  maxBytes: 1024,
  maxRedirects: 3,
  userAgent: 'test',
};

async function failure(url: string, allowPrivateHosts = false): Promise<OutboundError> {
  try {
    await safeGet(url, { ...options, allowPrivateHosts });
  } catch (error) {
    if (error instanceof OutboundError) return error;
    throw error;
  }
  throw new Error(`${url} was fetched`);
}

describe('special addresses', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fc00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
  ])('%s is special', (address) => {
    expect(isSpecialAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(isSpecialAddress(address)).toBe(false);
    },
  );
});

describe('the SSRF guard', () => {
  it('never connects to a private or loopback address unless allowed', async () => {
    const before = hits;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://2130706433:${port}/`, // 127.0.0.1 written as a number
      `http://0x7f.1:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://0.0.0.0/',
    ]) {
      const error = await failure(url);
      expect(error.kind, url).toBe('blocked_address');
      expect(error.message).toMatch(/a private or reserved address, which is not fetched$/);
    }
    expect(hits).toBe(before);
    const allowed = await safeGet(`http://127.0.0.1:${port}/`, { ...options, allowPrivateHosts: true });
    expect(allowed.body.toString()).toBe('secret');
  });

  it('takes only http(s) URLs without credentials', async () => {
    for (const [url, message] of [
      ['file:///etc/passwd', 'only http and https URLs are fetched (got file:)'],
      ['gopher://127.0.0.1/', 'only http and https URLs are fetched (got gopher:)'],
      ['ftp://example.com/', 'only http and https URLs are fetched (got ftp:)'],
      ['http://a:b@example.com/', 'URLs with credentials are not fetched'],
      ['//example.com', 'not a valid URL'],
    ] as const) {
      const error = await failure(url, true);
      expect(error.kind).toBe('bad_url');
      expect(error.message).toBe(message);
    }
  });

  it('names a host that does not resolve', async () => {
    const error = await failure('http://no-such-host.invalid/', true);
    expect(error.kind).toBe('dns');
  });
});
