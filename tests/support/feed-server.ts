import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * A small publisher for the news tests and bench: serves real-shaped feeds of every format over HTTP,
 * and the ways feeds go wrong (broken, hostile, huge, slow, redirecting, gzip, 304). Feeds are set per
 * path; each request is counted.
 */

export interface FeedItem {
  guid: string;
  title: string;
  link: string;
  summary?: string;
  date?: Date;
  image?: string;
  author?: string;
}

const esc = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function rss(title: string, items: FeedItem[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>${esc(title)}</title><link>https://publisher.example/</link><description>${esc(title)}</description>
${items
  .map(
    (
      item,
    ) => `<item><title>${esc(item.title)}</title><link>${esc(item.link)}</link><guid isPermaLink="false">${esc(item.guid)}</guid>
<description><![CDATA[${item.summary ?? ''}]]></description>${item.date ? `<pubDate>${item.date.toUTCString()}</pubDate>` : ''}${
      item.author ? `<dc:creator>${esc(item.author)}</dc:creator>` : ''
    }${item.image ? `<media:thumbnail url="${esc(item.image)}"/>` : ''}</item>`,
  )
  .join('\n')}
</channel></rss>`;
}

export function atom(title: string, items: FeedItem[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>${esc(title)}</title><id>urn:feed:${esc(title)}</id><updated>${new Date().toISOString()}</updated>
${items
  .map(
    (
      item,
    ) => `<entry><title>${esc(item.title)}</title><id>${esc(item.guid)}</id><link rel="alternate" href="${esc(item.link)}"/>
<updated>${(item.date ?? new Date()).toISOString()}</updated><summary type="html">${esc(item.summary ?? '')}</summary>${
      item.author ? `<author><name>${esc(item.author)}</name></author>` : ''
    }</entry>`,
  )
  .join('\n')}
</feed>`;
}

export function rdf(title: string, items: FeedItem[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://publisher.example/"><title>${esc(title)}</title><link>https://publisher.example/</link><description>x</description></channel>
${items
  .map(
    (
      item,
    ) => `<item rdf:about="${esc(item.guid)}"><title>${esc(item.title)}</title><link>${esc(item.link)}</link>
<description>${esc(item.summary ?? '')}</description>${item.date ? `<dc:date>${item.date.toISOString()}</dc:date>` : ''}</item>`,
  )
  .join('\n')}
</rdf:RDF>`;
}

export function jsonFeed(title: string, items: FeedItem[]): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title,
    items: items.map((item) => ({
      id: item.guid,
      url: item.link,
      title: item.title,
      content_html: item.summary ?? '',
      ...(item.image ? { image: item.image } : {}),
      ...(item.date ? { date_published: item.date.toISOString() } : {}),
      ...(item.author ? { authors: [{ name: item.author }] } : {}),
    })),
  });
}

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface FeedServer {
  url: string;
  /** Requests per path. */
  hits: Map<string, number>;
  /** Headers of the last request per path. */
  lastHeaders: Map<string, IncomingMessage['headers']>;
  route(path: string, handler: Handler): void;
  /** Serves `body` with a content type, ETag/Last-Modified validators and gzip when asked. */
  feed(path: string, body: string, options?: { type?: string; etag?: string; gzip?: boolean }): void;
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, Handler>();
  const hits = new Map<string, number>();
  const lastHeaders = new Map<string, IncomingMessage['headers']>();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    lastHeaders.set(path, request.headers);
    const handler = routes.get(path);
    if (!handler) {
      response.writeHead(404).end('not found');
      return;
    }
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    lastHeaders,
    route(path, handler) {
      routes.set(path, handler);
    },
    feed(path, body, options = {}) {
      const lastModified = 'Tue, 24 Nov 2026 00:00:00 GMT';
      routes.set(path, (request, response) => {
        if (options.etag && request.headers['if-none-match'] === options.etag) {
          response.writeHead(304, { etag: options.etag }).end();
          return;
        }
        const headers: Record<string, string> = {
          'content-type': options.type ?? 'application/rss+xml; charset=utf-8',
          'last-modified': lastModified,
        };
        if (options.etag) headers.etag = options.etag;
        let payload: Buffer = Buffer.from(body);
        if (options.gzip && /gzip/.test(String(request.headers['accept-encoding']))) {
          payload = gzipSync(payload);
          headers['content-encoding'] = 'gzip';
        }
        response.writeHead(200, headers).end(payload);
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
