// The balancer configurations of deploy/ made runnable on one machine (decision 221), for
// `npm run cluster` and tests/integration/deploy-balancer.test.ts: the file as shipped, with its
// `# production only` lines left out (TLS certificates, the chroot, system paths) and its listening
// and server lines replaced by local ones. Anything else in the file runs as written, so the tests
// exercise the configuration an operator copies.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEPLOY_DIR = join(dirname(dirname(fileURLToPath(import.meta.url))), 'deploy');

const PRODUCTION_ONLY = /#\s*production only\s*$/;

function withoutProductionLines(text) {
  return text.split('\n').filter((line) => !PRODUCTION_ONLY.test(line));
}

/** Replaces the run of lines matching `pattern` (they must be consecutive) with `replacement`. */
function replaceRun(lines, pattern, replacement, what) {
  const first = lines.findIndex((line) => pattern.test(line));
  if (first === -1) throw new Error(`${what}: no line matches ${pattern}`);
  let end = first;
  while (end < lines.length && pattern.test(lines[end])) end += 1;
  if (lines.slice(end).some((line) => pattern.test(line)))
    throw new Error(`${what}: the lines matching ${pattern} are not together`);
  const indent = /^\s*/.exec(lines[first])?.[0] ?? '';
  return [...lines.slice(0, first), ...replacement.map((line) => indent + line), ...lines.slice(end)];
}

/**
 * deploy/haproxy.cfg listening on `listen` (host:port) and balancing over `servers` (host:port
 * each); `extraGlobal` adds lines to the global section (a pid file, a stats socket).
 */
export async function haproxyConfig({ listen, servers, extraGlobal = [] }) {
  let lines = withoutProductionLines(await readFile(join(DEPLOY_DIR, 'haproxy.cfg'), 'utf8'));
  lines = replaceRun(lines, /^\s*bind\s/, [`bind ${listen}`], 'haproxy.cfg');
  lines = replaceRun(
    lines,
    /^\s*server\s/,
    servers.map((address, index) => `server hg${index + 1} ${address}`),
    'haproxy.cfg',
  );
  const global = lines.findIndex((line) => /^global\s*$/.test(line));
  lines.splice(global + 1, 0, ...extraGlobal.map((line) => `    ${line}`));
  return `${lines.join('\n')}\n`;
}

/**
 * deploy/nginx.conf listening on `listen` (host:port) and balancing over `servers`; `prefix` is a
 * writable directory for the pid file, the logs and nginx's temporary files.
 */
export async function nginxConfig({ listen, servers, prefix }) {
  let lines = withoutProductionLines(await readFile(join(DEPLOY_DIR, 'nginx.conf'), 'utf8'));
  lines = replaceRun(lines, /^\s*listen\s/, [`listen ${listen};`], 'nginx.conf');
  const options = /^\s*server\s+\S+:\d+(\s+[^;]*)?;/.exec(
    lines.find((line) => /^\s*server\s+\S+:\d+/.test(line)) ?? '',
  )?.[1];
  lines = replaceRun(
    lines,
    /^\s*server\s+\S+:\d+/,
    servers.map((address) => `server ${address}${options ?? ''};`),
    'nginx.conf',
  );
  const local = [`pid ${prefix}/nginx.pid;`, `error_log ${prefix}/error.log warn;`];
  const http = lines.findIndex((line) => /^http\s*\{/.test(line));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (kind) => `    ${kind}_temp_path ${prefix}/${kind};`,
  );
  lines.splice(http + 1, 0, `    access_log ${prefix}/access.log;`, ...temp);
  return `${[...local, ...lines].join('\n')}\n`;
}
