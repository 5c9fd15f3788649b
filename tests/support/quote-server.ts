import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small quote provider for the market tests: speaks the Tiingo end-of-day protocol
 * (`GET /tiingo/daily/{ticker}/prices?startDate&endDate`, `Authorization: Token key`, a JSON array of
 * `{date, close, high, low, open, volume, adjClose, …}` with ISO timestamps), and the ways a provider
 * goes wrong, set per ticker: an HTTP error, a slow answer, garbage. Requests are recorded.
 */

export type TickerBehaviour =
  | { kind: 'closes'; close: (date: string) => number }
  | { kind: 'status'; status: number; body: string }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'raw'; body: string };

export interface QuoteServer {
  url: string;
  key: string;
  requests: { ticker: string; startDate: string | null; endDate: string | null; authorization?: string }[];
  /** Behaviour per lower-case ticker; others get `closes` from `defaultClose`. */
  behaviour: Map<string, TickerBehaviour>;
  defaultClose: (ticker: string, date: string) => number;
  close(): Promise<void>;
}

/** Weekdays from..to inclusive, as YYYY-MM-DD. */
function weekdays(from: string, to: string): string[] {
  const days: string[] = [];
  const day = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);
  while (day <= end) {
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return days;
}

export async function startQuoteServer(key = 'test-quote-key'): Promise<QuoteServer> {
  const behaviour = new Map<string, TickerBehaviour>();
  const requests: QuoteServer['requests'] = [];
  const state: QuoteServer = {
    url: '',
    key,
    requests,
    behaviour,
    defaultClose: (ticker, date) => 1 + (ticker.charCodeAt(0) % 7) + Number(date.slice(8, 10)) / 100,
    close: async () => undefined,
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://quotes.local');
    const match = /^\/tiingo\/daily\/([^/]+)\/prices$/.exec(url.pathname);
    const send = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
    if (!match) return send(404, JSON.stringify({ detail: 'Not found.' }));
    const ticker = decodeURIComponent(match[1] as string);
    const startDate = url.searchParams.get('startDate');
    const endDate = url.searchParams.get('endDate');
    requests.push({ ticker, startDate, endDate, authorization: request.headers.authorization });
    if (request.headers.authorization !== `Token ${key}`) {
      return send(401, JSON.stringify({ detail: 'Invalid token.' }));
    }
    if (!startDate || !endDate) return send(400, JSON.stringify({ detail: 'Error: startDate required' }));
    const rule = behaviour.get(ticker) ?? {
      kind: 'closes',
      close: (date: string) => state.defaultClose(ticker, date),
    };
    if (rule.kind === 'status') return send(rule.status, rule.body);
    if (rule.kind === 'raw') return send(200, rule.body);
    if (rule.kind === 'slow') {
      const timer = setTimeout(() => send(200, '[]'), rule.delayMs);
      request.on('close', () => clearTimeout(timer));
      return;
    }
    const prices = weekdays(startDate, endDate).map((date) => {
      const close = rule.close(date);
      return {
        date: `${date}T00:00:00.000Z`,
        close,
        high: close * 1.02,
        low: close * 0.98,
        open: close,
        volume: 12345,
        adjClose: close,
        adjHigh: close * 1.02,
        adjLow: close * 0.98,
        adjOpen: close,
        adjVolume: 12345,
        divCash: 0,
        splitFactor: 1,
      };
    });
    return send(200, JSON.stringify(prices));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
