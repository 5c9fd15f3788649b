import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '#server/web-build.ts';

export interface SpawnedServer {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the URL the server printed once it is ready (rejects if it exits first). */
  ready: Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs the server exactly as `npm start` does (node scripts/start.mjs), in its own process. */
export function spawnServer(env: Record<string, string>): SpawnedServer {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'scripts/start.mjs')], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /running at (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', check);
    exited.then(({ code, signal }) =>
      reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${err}`)),
    );
  });
  ready.catch(() => {});
  return { child, stdout: () => out, stderr: () => err, ready, exited };
}
