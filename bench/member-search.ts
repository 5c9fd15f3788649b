/**
 * The admins' member search at a kept size (decision 280): the view the page read before
 * (`admin_member_search` with `count=estimated`) against `admin_find_members`, interleaved request by
 * request on one server and database, so both see the same machine. Run it against the server that
 * `bench/scale.ts --areas=admin --keep` leaves up (its database must have `admin_find_members`):
 *
 *   npx tsx bench/member-search.ts --url=http://127.0.0.1:PORT --data-dir=/tmp/highgrade-test-… \
 *     --members=10000000 [--requests=40] [--ways=view,function]
 *
 * `--data-dir` is the kept server's DATA_DIR, whose keys sign the admin's token. The searches are
 * scale.ts's (an early member's number, with and without the domain) and a word every member's
 * address holds.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { memberSearchQuery } from '#web/features/admin/member-search.ts';
import { table } from './support.ts';

const arg = (name: string, fallback?: string) => {
  const value = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
  if (value === undefined) throw new Error(`--${name}= is needed`);
  return value;
};
const URL_ = arg('url');
const MEMBERS = Number(arg('members'));
const REQUESTS = Number(arg('requests', '40'));
/** Which ways to ask (both by default): `--ways=function` asks the function alone, e.g. a second, warm pass. */
const WAYS = arg('ways', 'view,function').split(',') as ('view' | 'function')[];
const ADMIN = '00000000-0000-4000-8000-00000000ad00';
const COLUMNS =
  'id,email,username,full_name,avatar_url,created_at,last_sign_in_at,suspended,is_admin,subscription_status,subscription_expires_at,trial_ends_at,report_count,booking_count';
const pick = (i: number) => 1 + ((i * 7919) % Math.max(1, MEMBERS));

const SEARCHES: { name: string; typed: (i: number) => string }[] = [
  { name: "an early member's number", typed: (i) => `member${pick(i)}` },
  { name: 'the same with the domain', typed: (i) => `member${pick(i)}@bench` },
  { name: "a word every member's address holds", typed: () => 'bench' },
];

function p(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)] ?? Number.NaN;
}

async function main() {
  const keys = JSON.parse(await readFile(join(arg('data-dir'), 'keys.json'), 'utf8')) as {
    jwt_secret: string;
    anon_key: string;
  };
  const token = await new SignJWT({ role: 'authenticated', aud: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(ADMIN)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(keys.jwt_secret));
  const headers = {
    apikey: keys.anon_key,
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  };

  const ways = {
    view: (typed: string) =>
      fetch(
        `${URL_}/rest/v1/admin_member_search?select=${COLUMNS}&search_words=fts(simple).${encodeURIComponent(memberSearchQuery(typed))}&order=created_at.desc.nullslast,id.desc&offset=0&limit=25`,
        { headers: { ...headers, prefer: 'count=estimated' } },
      ),
    function: (typed: string) =>
      fetch(`${URL_}/rest/v1/rpc/admin_find_members`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ q: typed, page_offset: 0, page_rows: 25 }),
      }),
  };
  const rows: object[] = [];
  for (const search of SEARCHES) {
    const samples = { view: [] as number[], function: [] as number[] };
    const failed = { view: 0, function: 0 };
    const found = { view: 0, function: 0 };
    const failure = { view: '', function: '' };
    for (let i = 0; i < REQUESTS + 5; i += 1) {
      // Alternating which goes first, so neither always meets the other's warm cache.
      const order = i % 2 === 0 ? WAYS : [...WAYS].reverse();
      for (const way of order) {
        const started = performance.now();
        const response = await ways[way](search.typed(i));
        const text = await response.text();
        const ms = performance.now() - started;
        if (response.status >= 300) {
          failed[way] += 1;
          failure[way] = `HTTP ${response.status} ${text.slice(0, 120)}`;
          continue;
        }
        const body = JSON.parse(text) as unknown[] | { members: unknown[] };
        found[way] += (Array.isArray(body) ? body : body.members).length;
        if (i >= 5) samples[way].push(ms);
      }
    }
    for (const way of WAYS) {
      rows.push({
        search: search.name,
        way,
        'p50 ms': p(samples[way], 0.5).toFixed(1),
        'p95 ms': p(samples[way], 0.95).toFixed(1),
        'rows a page': (found[way] / (REQUESTS + 5 - failed[way] || 1)).toFixed(1),
        failed: failed[way],
      });
      if (failure[way]) console.log(`${search.name}, ${way}: ${failure[way]}`);
    }
  }
  table(rows);
  const load = (await import('node:os')).loadavg().map((n) => n.toFixed(2));
  console.log(`load average at the end: ${load.join(' ')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
