import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * Requests the server makes to addresses it was given (a news feed today, a quote provider later),
 * made safe against what such an address can do (decision 112):
 *
 * - only http: and https: URLs, without credentials in them;
 * - never a private, loopback, link-local or otherwise special address — checked on the address the
 *   connection actually uses (the name is resolved once, checked, and the socket connects to that
 *   address, so a name that resolves differently the second time cannot slip through), on every
 *   redirect hop — unless the operator allows private hosts;
 * - a limited number of redirects; one deadline for the whole exchange (connect, headers, body);
 * - a size cap on the body as received and again after decompression (gzip, deflate, br), so neither a
 *   large body nor a compression bomb is read past it;
 * - conditional GET (If-None-Match / If-Modified-Since) and a clear User-Agent.
 */

export interface OutboundOptions {
  /** Allows private and loopback addresses (tests, or feeds on an operator's own network). */
  allowPrivateHosts: boolean;
  /** The whole exchange, redirects included, in milliseconds. */
  timeoutMs: number;
  /** The largest body accepted, after decompression, in bytes. */
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  /** Sent as Accept. */
  accept?: string;
  etag?: string | null;
  lastModified?: string | null;
  /** Ends the exchange early (server shutdown). */
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  /** The URL that answered, after redirects. */
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** 304: the validators sent still hold. */
  notModified: boolean;
  etag: string | null;
  lastModified: string | null;
}

export type OutboundFailure =
  | 'bad_url'
  | 'blocked_address'
  | 'dns'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'http_status'
  | 'network'
  | 'aborted';

/** Why a request failed, in words an operator can act on. */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

// IPv4-mapped IPv6 addresses (::ffff:0:0/96) are unwrapped and checked as IPv4 (mappedIpv4); the list
// holds no rule for them, since BlockList would then match every IPv4 address against it.
const SPECIAL_ADDRESSES = (() => {
  const list = new BlockList();
  for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv4');
  }
  for (const [network, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['64:ff9b::', 96],
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['2001::', 23],
    ['2001:db8::', 32],
    ['2002::', 16],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv6');
  }
  return list;
})();

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx). */
function mappedIpv4(address: string): string | null {
  const match = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/i.exec(address) ?? /^::ffff:(.+)$/i.exec(address);
  if (!match?.[1]) return null;
  const tail = match[1];
  if (isIP(tail) === 4) return tail;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail);
  if (!hex?.[1] || !hex[2]) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** True for addresses a request from the server must not reach unless allowed (private, loopback, …). */
export function isSpecialAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return SPECIAL_ADDRESSES.check(address, 'ipv4');
  if (family === 6) {
    const v4 = mappedIpv4(address);
    if (v4) return SPECIAL_ADDRESSES.check(v4, 'ipv4');
    return SPECIAL_ADDRESSES.check(address, 'ipv6');
  }
  return true;
}

/** Parses and checks a URL the server is asked to fetch; the reason in words when it may not. */
export function checkOutboundUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OutboundError('bad_url', 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError(
      'bad_url',
      `only http and https URLs are fetched (got ${url.protocol.slice(0, 20)})`,
    );
  }
  if (url.username || url.password)
    throw new OutboundError('bad_url', 'URLs with credentials are not fetched');
  if (!url.hostname) throw new OutboundError('bad_url', 'the URL has no host');
  return url;
}

interface Resolved {
  address: string;
  family: 4 | 6;
}

async function resolve(url: URL, allowPrivate: boolean): Promise<Resolved> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  let candidates: Resolved[];
  if (literal) {
    candidates = [{ address: host, family: literal as 4 | 6 }];
  } else {
    try {
      const found = await dnsLookup(host, { all: true, verbatim: true });
      candidates = found.map((entry) => ({ address: entry.address, family: entry.family as 4 | 6 }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new OutboundError('dns', `the host name ${host} could not be resolved (${code})`);
    }
  }
  if (candidates.length === 0) throw new OutboundError('dns', `the host name ${host} has no address`);
  if (!allowPrivate) {
    // Every address the name has must be public: a name with one public and one private address
    // could otherwise be steered to the private one.
    const blocked = candidates.find((candidate) => isSpecialAddress(candidate.address));
    if (blocked) {
      throw new OutboundError(
        'blocked_address',
        `${host} resolves to ${blocked.address}, a private or reserved address, which is not fetched`,
      );
    }
  }
  return candidates[0] as Resolved;
}

function pinnedLookup(resolved: Resolved): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: resolved.address, family: resolved.family }]);
    else callback(null, resolved.address, resolved.family);
  }) as unknown as LookupFunction;
}

function header(value: string | string[] | undefined): string | null {
  const single = Array.isArray(value) ? value[0] : value;
  return single === undefined || single === '' ? null : single;
}

/** One hop: the response with its body read (within the caps), or the redirect target. */
async function exchange(
  url: URL,
  resolved: Resolved,
  options: OutboundOptions,
  signal: AbortSignal,
): Promise<{ response: IncomingMessage; body: Buffer | null }> {
  const headers: Record<string, string> = {
    'user-agent': options.userAgent,
    accept: options.accept ?? '*/*',
    'accept-encoding': 'gzip, deflate, br',
  };
  if (options.etag) headers['if-none-match'] = options.etag;
  if (options.lastModified) headers['if-modified-since'] = options.lastModified;
  const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
    method: 'GET',
    headers,
    lookup: pinnedLookup(resolved),
    signal,
    // No connection reuse: each hop connects to the address checked for it.
    agent: false,
  });
  const response = await new Promise<IncomingMessage>((done, fail) => {
    request.once('response', done);
    request.once('error', fail);
    request.end();
  });
  const status = response.statusCode ?? 0;
  if ((status >= 300 && status < 400 && status !== 304) || status === 304 || status >= 400) {
    response.resume();
    return { response, body: null };
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    response.destroy();
    throw new OutboundError('too_large', `the answer is larger than ${options.maxBytes} bytes`);
  }
  const encoding = header(response.headers['content-encoding'])?.toLowerCase().trim() ?? 'identity';
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  if (decoder === null && encoding !== 'identity') {
    response.destroy();
    throw new OutboundError(
      'network',
      `the answer uses an unknown content encoding (${encoding.slice(0, 40)})`,
    );
  }
  const body = await new Promise<Buffer>((done, fail) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let decoded = 0;
    const tooLarge = () => {
      response.destroy();
      decoder?.destroy();
      fail(new OutboundError('too_large', `the answer is larger than ${options.maxBytes} bytes`));
    };
    response.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > options.maxBytes) tooLarge();
    });
    response.once('error', fail);
    const source = decoder ? response.pipe(decoder) : response;
    source.on('data', (chunk: Buffer) => {
      decoded += chunk.length;
      if (decoded > options.maxBytes) return tooLarge();
      chunks.push(chunk);
    });
    source.once('error', (error) =>
      fail(
        error instanceof OutboundError
          ? error
          : new OutboundError(
              'network',
              `the compressed answer could not be read (${(error as Error).message})`,
            ),
      ),
    );
    source.once('end', () => done(Buffer.concat(chunks)));
  });
  return { response, body };
}

/** GET `address` under the rules above. Throws OutboundError (never anything else) when it fails. */
export async function safeGet(address: string, options: OutboundOptions): Promise<OutboundResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let url = checkOutboundUrl(address);
    for (let hop = 0; ; hop += 1) {
      const resolved = await resolve(url, options.allowPrivateHosts);
      if (controller.signal.aborted) throw new Error('aborted');
      const { response, body } = await exchange(url, resolved, options, controller.signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304) {
        const location = header(response.headers.location);
        if (!location) throw new OutboundError('http_status', `HTTP ${status} without a Location`, status);
        if (hop >= options.maxRedirects) {
          throw new OutboundError('too_many_redirects', `more than ${options.maxRedirects} redirects`);
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new OutboundError('bad_url', 'a redirect points to an invalid URL');
        }
        url = checkOutboundUrl(next.toString());
        continue;
      }
      if (status >= 400 || status < 200) {
        throw new OutboundError(
          'http_status',
          `HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`,
          status,
        );
      }
      return {
        status,
        url: url.toString(),
        headers: response.headers,
        body: body ?? Buffer.alloc(0),
        notModified: status === 304,
        etag: header(response.headers.etag),
        lastModified: header(response.headers['last-modified']),
      };
    }
  } catch (error) {
    if (error instanceof OutboundError) throw error;
    if (timedOut) throw new OutboundError('timeout', `no complete answer within ${options.timeoutMs} ms`);
    if (controller.signal.aborted) throw new OutboundError('aborted', 'the request was cancelled');
    const code = (error as NodeJS.ErrnoException).code;
    throw new OutboundError('network', `the connection failed (${code ?? (error as Error).message})`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
