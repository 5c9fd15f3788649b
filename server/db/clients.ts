import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabaseLimits, RequestScope } from './driver.ts';
import type { Claim } from './gate.ts';

/**
 * Which client the database work of the moment is for. The HTTP layer runs every request's handler
 * inside `runForClient` (server/http/database-client.ts), so the drivers can tell a request's work
 * — which waits for a connection at most `acquireTimeoutMs` and counts against its client's share —
 * from the server's own, and whose it is, without every call site passing it along.
 */
export interface RequestClient {
  /** The client's address as Fastify established it (honouring TRUST_PROXY). */
  address: string;
}

const current = new AsyncLocalStorage<RequestClient>();

export function runForClient<T>(client: RequestClient, fn: () => T): T {
  return current.run(client, fn);
}

/**
 * Runs `fn` as the server's own work even inside a request: for work an operator starts by a request
 * but that is the server's (fetching every news feed), which must not count against, or wait behind,
 * the operator's per-client share.
 */
export function runAsServer<T>(fn: () => T): T {
  return current.exit(fn);
}

export function currentClient(): RequestClient | undefined {
  return current.getStore();
}

/**
 * The claim a piece of work makes on the gate. A signed-in user's API work counts against the user
 * (many members may share one address: an office, a proxy without TRUST_PROXY); everything else a
 * request does counts against its address. The service role is trusted and uncapped. Work outside
 * any request is the server's own: uncapped, and it waits as long as it takes.
 */
export function claimFor(scope: RequestScope | undefined, limits: DatabaseLimits): Claim {
  const client = current.getStore();
  const waitMs = client ? limits.acquireTimeoutMs : undefined;
  if (scope?.role === 'service_role') return { key: 'service', capped: false, waitMs };
  const sub = scope?.role === 'authenticated' ? scope.claims.sub : undefined;
  if (typeof sub === 'string' && sub !== '') return { key: `user:${sub}`, capped: true, waitMs };
  if (client) return { key: `addr:${client.address}`, capped: true, waitMs };
  return { key: 'server', capped: false, waitMs };
}
