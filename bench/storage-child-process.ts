/**
 * Starts bench/storage-child.ts (the real server, or the bare node:http floor) as a process of its own
 * and talks to it on stdin/stdout, one JSON line each way: `baseline`, `peak` (memory growth since the
 * baseline), `exit`. Shared by bench/storage.ts and bench/image-transform.ts.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PROJECT_ROOT } from '#server/web-build.ts';

export interface Child {
  url: string;
  serviceRoleKey?: string;
  anonKey?: string;
  ask(message: string): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export async function startChild(mode: 'server' | 'bare', env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(PROJECT_ROOT, 'bench/storage-child.ts'), mode],
    { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse(((await lines.next()).value as string) ?? '{}');
  const ready = (await next()) as { url: string; serviceRoleKey?: string; anonKey?: string };
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    ...ready,
    async ask(message) {
      child.stdin.write(`${message}\n`);
      return next();
    },
    async stop() {
      child.stdin.write('exit\n');
      await exited;
    },
  };
}
