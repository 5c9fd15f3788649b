import { type Backend, type StorageTestServer as Storage, startStorage } from '#tests/support/storage.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

/** The real server in this process on the given backend, with its database at hand (`server.db`). */
export function startStorageServer(
  backend: Backend,
  env: Record<string, string> = {},
): Promise<StorageTestServer> {
  return startStorage(backend, env, startTestServer);
}

export type StorageTestServer = Storage<TestServer>;
