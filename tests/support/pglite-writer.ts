/**
 * A process that commits numbered rows to an embedded database as fast as it can and prints each
 * number once its commit returned — the writes it has acknowledged. The durability test kills it with
 * SIGKILL and checks every acknowledged row survived. Usage: tsx tests/support/pglite-writer.ts <dataDir>
 */
import { openPglite } from '#server/db/pglite.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: pglite-writer.ts <dataDir>');
const db = await openPglite({ dataDir });
await db.exec('create table if not exists public.acks (n int primary key)');
for (let n = 1; ; n++) {
  await db.query('insert into public.acks (n) values ($1)', [n]);
  process.stdout.write(`${n}\n`);
}
