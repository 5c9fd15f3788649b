/**
 * The Scammer Network at size (issue 19): seeds published reports with their contact identifiers, then
 * measures through /rest/v1 what readers do — a typo'd name search, a business search, a phone written
 * another way, a filtered search sorted by amount — and how long linking a new report takes (its insert
 * with the identifier trigger, and the linked-reports call).
 *
 *   npx tsx bench/reports.ts [pglite|postgres] [--scale=1]
 *
 * Full size is 200,000 published reports and 600,000 identifiers (a phone, an email and a website
 * each); --scale multiplies it (say which you ran). `postgres` needs BENCH_PG_URL or TEST_PG_URL.
 * The seed writes reports and identifiers in bulk with the triggers off, as an import would; the
 * measured new report goes through the triggers.
 */
import { startTestServer } from '#tests/support/test-server.ts';
import { signedInMember } from './support.ts';

const tier = (process.argv[2] ?? 'pglite') as 'pglite' | 'postgres';
const scaleArg = process.argv.find((arg) => arg.startsWith('--scale='));
const scale = scaleArg ? Number(scaleArg.slice('--scale='.length)) : 1;
const REPORTS = Math.max(1000, Math.round(200_000 * scale));

if (tier === 'postgres') {
  process.env.TEST_DB = 'postgres';
  process.env.TEST_PG_URL ??= process.env.BENCH_PG_URL;
}

const p95 = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
};

// Syllables for names and businesses as varied as real ones: 40^3 first names, 40^3 last names.
const SYLLABLES = [
  'ka',
  'ro',
  'mi',
  'ta',
  'ne',
  'lo',
  'vi',
  'sa',
  'du',
  'be',
  'ri',
  'mo',
  'za',
  'ce',
  'fi',
  'go',
  'ha',
  'ju',
  'ke',
  'li',
  'ma',
  'no',
  'pe',
  'qu',
  'ra',
  'si',
  'to',
  'ul',
  'va',
  'we',
  'xa',
  'yo',
  'ze',
  'an',
  'el',
  'in',
  'or',
  'us',
  'ay',
  'ex',
];
const KINDS = ['Supply', 'Farms', 'Exotics', 'Garden', 'Collective', 'Harvest', 'Labs', 'Organics'];
/** Three syllables picked from n: the same function the seed computes in SQL. */
const word = (n: number) =>
  (SYLLABLES[n % 40] as string) + SYLLABLES[Math.floor(n / 40) % 40] + SYLLABLES[Math.floor(n / 1600) % 40];
const mix = (g: number, k: number) => Number((BigInt(g) * BigInt(k)) % 64000n);

async function main() {
  console.log(
    `Scammer Network bench on ${tier}: ${REPORTS} published reports, ${REPORTS * 3} identifiers (scale ${scale})`,
  );
  const server = await startTestServer({ DEMO_CONTENT: 'false', TRUST_PROXY: '127.0.0.1' });
  const db = server.db;
  try {
    const seedStart = performance.now();
    await db.query(
      `insert into auth.users (id, email, aud, role, email_confirmed_at, created_at)
       values ('00000000-0000-4000-9100-000000000001', 'bench-reporter@example.com', 'authenticated', 'authenticated', now(), now())`,
    );
    await db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(
        `insert into public.scammer_reports (id, scammer_name, scammer_description, incident_details, location,
           business_name, contact_info, amount_scammed, date_of_incident, reporter_user_id, status, reviewed_at,
           status_changed_at, created_at, updated_at)
         select ('00000000-0000-4000-9200-' || lpad(to_hex(g), 12, '0'))::uuid,
           initcap((($2::text[])[1 + ((g::bigint * 7919) % 64000)::int % 40] || ($2::text[])[1 + (((g::bigint * 7919) % 64000)::int / 40) % 40] || ($2::text[])[1 + (((g::bigint * 7919) % 64000)::int / 1600) % 40])) || ' ' || initcap((($2::text[])[1 + ((g::bigint * 104729) % 64000)::int % 40] || ($2::text[])[1 + (((g::bigint * 104729) % 64000)::int / 40) % 40] || ($2::text[])[1 + (((g::bigint * 104729) % 64000)::int / 1600) % 40])),
           'Sold product that never arrived.', 'Paid upfront by transfer, the seller stopped answering after payment.',
           (array['Denver, CO','Seattle, WA','Portland, OR','Los Angeles, CA','Detroit, MI','Toronto, ON'])[1 + g % 6],
           initcap((($2::text[])[1 + ((g::bigint * 31337) % 64000)::int % 40] || ($2::text[])[1 + (((g::bigint * 31337) % 64000)::int / 40) % 40] || ($2::text[])[1 + (((g::bigint * 31337) % 64000)::int / 1600) % 40])) || ' ' || ($3::text[])[1 + g % 8],
           format('(%s) 555-%s, deals%s@gmail.com, www.shop%s.com', 200 + g % 700, lpad((g % 10000)::text, 4, '0'), g, g),
           (g % 5000) + 0.5, date '2026-01-01' + (g % 300), '00000000-0000-4000-9100-000000000001', 'published',
           now() - make_interval(mins => g), now() - make_interval(mins => g), now() - make_interval(mins => g + 60),
           now() - make_interval(mins => g)
         from generate_series(1, $1::int) g,
           lateral (select 1) one`,
        [REPORTS, SYLLABLES, KINDS],
      );
      await tx.query(
        `insert into private.scammer_report_identifiers (report_id, kind, value)
         select ('00000000-0000-4000-9200-' || lpad(to_hex(g), 12, '0'))::uuid, x.kind, x.value
         from generate_series(1, $1::int) g,
           lateral (values
             ('phone', '+1' || (200 + g % 700)::text || '555' || lpad((g % 10000)::text, 4, '0')),
             ('email', 'deals' || g || '@gmail.com'),
             ('domain', 'shop' || g || '.com')) x(kind, value)`,
        [REPORTS],
      );
    });
    await db.query(
      `insert into private.scammer_report_words (word)
       select distinct t.lexeme from public.scammer_reports r, unnest(to_tsvector('simple'::regconfig, r.search_text)) t
       where t.lexeme ~ '^[[:alpha:]]{3,100}$'
       on conflict do nothing`,
    );
    // The words that complete a typed word (decision 251), as the reports' trigger keeps them.
    await db.query(
      `insert into private.scammer_report_lexemes (lexeme)
       select distinct t.lexeme from public.scammer_reports r, unnest(to_tsvector('simple'::regconfig, r.search_text)) t
       where r.status = 'published' and t.lexeme ~ '^[[:alpha:]]'
       on conflict do nothing`,
    );
    await db.query('analyze private.scammer_report_words');
    await db.query('analyze private.scammer_report_lexemes');
    await db.query('analyze public.scammer_reports');
    await db.query('analyze private.scammer_report_identifiers');
    const { rows } = await db.query<{ n: number }>(
      'select count(*)::int as n from private.scammer_report_identifiers',
    );
    console.log(
      `seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (${rows[0]?.n} identifiers)`,
    );

    // A reader with access (a new member's trial).
    const reader = await signedInMember(server, `bench-reader-${Date.now()}@example.com`);
    const headers = {
      apikey: server.anonKey,
      authorization: `Bearer ${reader.token}`,
      'content-type': 'application/json',
    };
    const search = async (
      label: string,
      args: (i: number) => Record<string, unknown>,
      expectHits: boolean,
    ) => {
      const samples: number[] = [];
      let misses = 0;
      for (let i = 0; i < 60; i += 1) {
        const start = performance.now();
        const response = await fetch(`${server.url}/rest/v1/rpc/search_scammer_reports`, {
          method: 'POST',
          headers,
          body: JSON.stringify(args(i)),
        });
        const body = (await response.json()) as unknown[];
        if (response.status !== 200) throw new Error(`${label}: ${response.status} ${JSON.stringify(body)}`);
        if (body.length === 0) misses += 1;
        if (i >= 5) samples.push(performance.now() - start);
      }
      const value = p95(samples);
      console.log(`${label}: p95 ${value.toFixed(1)} ms${expectHits ? `, ${60 - misses}/60 found` : ''}`);
      return value;
    };
    const pick = (i: number) => 1 + ((i * 7919) % REPORTS);
    await search(
      "search, typo'd name",
      (i) => {
        // "Kaormi Tanelo" → "Kaormi Taelo": a letter missed in the last name.
        const g = pick(i);
        const last = word(mix(g, 104729));
        return { query: `${word(mix(g, 7919))} ${last.slice(0, 2)}${last.slice(3)}` };
      },
      true,
    );
    await search(
      'search, business name',
      (i) => {
        const g = pick(i);
        return { query: `${word(mix(g, 31337))} ${KINDS[g % 8]}` };
      },
      true,
    );
    await search(
      'search, phone written another way',
      (i) => {
        const g = pick(i);
        return { query: `+1 ${200 + (g % 700)}.555.${String(g % 10000).padStart(4, '0')}` };
      },
      true,
    );
    await search('search, newest first, no query', () => ({}), true);
    await search(
      'search, location + amount range, by amount',
      () => ({
        location: 'denver',
        amount_min: 1000,
        amount_max: 2000,
        sort: 'amount',
      }),
      true,
    );

    // Linking a new report: its insert (with the identifier trigger), then its linked reports.
    const insertSamples: number[] = [];
    const linkSamples: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const g = pick(i + 1000);
      const start = performance.now();
      const { rows: inserted } = await db.query<{ id: string }>(
        `insert into public.scammer_reports (scammer_name, scammer_description, incident_details, contact_info,
           reporter_user_id, status, reviewed_at)
         values ($1, 'Sold product that never arrived.', 'Paid upfront by transfer, nothing arrived afterwards.', $2,
           '00000000-0000-4000-9100-000000000001', 'published', now())
         returning id`,
        [`Bench Newcomer ${i}`, `call ${200 + (g % 700)}-555-${String(g % 10000).padStart(4, '0')}`],
      );
      insertSamples.push(performance.now() - start);
      const linkStart = performance.now();
      const response = await fetch(`${server.url}/rest/v1/rpc/linked_scammer_reports`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ report_id: inserted[0]?.id }),
      });
      const links = (await response.json()) as unknown[];
      if (response.status !== 200 || links.length === 0) throw new Error(`linked: ${response.status}`);
      linkSamples.push(performance.now() - linkStart);
    }
    console.log(`new report insert with identifiers: p95 ${p95(insertSamples).toFixed(1)} ms`);
    console.log(`linked reports of a new report: p95 ${p95(linkSamples).toFixed(1)} ms`);
  } finally {
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
