#!/usr/bin/env node
// `npm start`: builds the server's bundle when it is missing or stale, then runs it in this process
// (decision 086). Source maps are on so stack traces name server/*.ts.
import { pathToFileURL } from 'node:url';
import { ensureServerBuild } from './server-build.mjs';

let entry;
try {
  entry = await ensureServerBuild((message) => process.stdout.write(`${message}\n`));
} catch (error) {
  // esbuild has already printed what is wrong and where.
  process.stderr.write(`highgrade: building the server failed: ${error?.message?.split('\n')[0] ?? error}\n`);
  process.exit(1);
}
process.setSourceMapsEnabled(true);
await import(pathToFileURL(entry).href);
