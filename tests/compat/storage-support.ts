import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { type Backend, type StorageTestServer as Storage, startStorage } from '#tests/support/storage.ts';

/** The real server as a process of its own on the given backend: compat tests see its URL and keys. */
export function startStorageServer(
  backend: Backend,
  env: Record<string, string> = {},
): Promise<StorageTestServer> {
  return startStorage(backend, env, startServerProcess);
}

export type StorageTestServer = Storage<ServerProcess>;
