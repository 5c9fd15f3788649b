/**
 * Issue 40 part 4: does a request's cost grow with the work or with the data? The list and search
 * calls of every area (news, Pass or Gas, brands, the Scammer Network, the admin lists), through
 * /rest/v1 of the real server on PostgreSQL, measured at growing sizes of one database in one run:
 * the data grows in steps and every call is measured after each step (p95 of serial requests).
 *
 *   npx tsx bench/scale.ts [--steps=0.01,0.1,1] [--requests=40] [--areas=brands,admin] [--explain] [--keep]
 *     [--votes-per-product=40]
 *
 * A step is a fraction of the other benches' full sizes ("today's sizes"): 200,000 news articles
 * (bench/news.ts), 50,000 products with 2,000,000 votes (bench/votes.ts), 20,000 brands
 * (bench/brands.ts), 200,000 published reports with 600,000 identifiers (bench/reports.ts), 100,000
 * members with 10,000 bookings, audit rows and security events (bench/admin.ts), and 10,000 posts.
 * `--steps=1,10,100` asks for 10× and 100× of those (hours of seeding and ~100 GB here). The seed
 * writes in bulk with the triggers off where an import would (the derived tallies written by the
 * seed itself), as the other benches do, and builds the large tables' secondary indexes once after
 * their rows, as a bulk load does (the same definitions; what is measured reads the same indexes).
 * `--explain` prints plans of some calls at the last step;
 * `--keep` leaves the server and database up afterwards (until Ctrl-C) for a closer look. `--areas`
 * (news, pass-or-gas, brands, reports, admin) measures those areas' calls only and grows only their
 * data past the first step, the rest staying at the first step's sizes: 10× of one area is minutes of
 * seeding where 10× of all is half an hour (the votes alone are 15 minutes).
 * `--votes-per-product` (40 by default, as bench/votes.ts) sets the votes seeded per product on
 * average: the Pass or Gas calls read the products and their tallies, not the votes, and 100× of the
 * products with 40 votes each would be 200,000,000 votes, more disk than this machine has. The
 * tallies are the seeded votes' counts either way.
 * Needs BENCH_PG_URL or TEST_PG_URL (a new database is made and dropped).
 */
import { SignJWT } from 'jose';
import type { Queryable } from '#server/db/driver.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { memberSearchQuery } from '#web/features/admin/member-search.ts';
import { PRODUCT_CATEGORIES } from '#web/lib/product-categories.ts';
import { signedInMember, table } from './support.ts';

process.env.TEST_DB = 'postgres';
process.env.TEST_PG_URL ??= process.env.BENCH_PG_URL;

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const STEPS = arg('steps', '0.01,0.1,1').split(',').map(Number);
const REQUESTS = Number(arg('requests', '40'));
const EXPLAIN = process.argv.includes('--explain');
const KEEP = process.argv.includes('--keep');
/** The areas measured (all when none is named), by their calls' area in lower case with dashes. */
const AREAS = arg('areas', '').split(',').filter(Boolean);
const areaKey = (area: string) => area.toLowerCase().replaceAll(' ', '-');
const WARM_UP = 5;

/** Today's sizes (the other benches' full sizes); a step multiplies them. */
const FULL = {
  articles: 200_000,
  products: 50_000,
  votesPerProduct: Number(arg('votes-per-product', '40')),
  brands: 20_000,
  reports: 200_000,
  members: 100_000,
  bookings: 10_000,
  audit: 10_000,
  events: 10_000,
  posts: 10_000,
};
type Sizes = typeof FULL;
if (!Number.isInteger(FULL.votesPerProduct) || FULL.votesPerProduct < 1) {
  throw new Error('--votes-per-product: a whole number, 1 or more');
}
/** Which sizes each area's calls read, for --areas. */
const SIZES_OF: Record<string, (keyof Sizes)[]> = {
  news: ['articles'],
  'pass-or-gas': ['products'],
  brands: ['brands'],
  reports: ['reports'],
  admin: ['members', 'bookings', 'audit', 'events', 'posts'],
};
const unknownArea = AREAS.find((area) => !(area in SIZES_OF));
if (unknownArea) throw new Error(`--areas: no area ${unknownArea} (${Object.keys(SIZES_OF).join(', ')})`);
const GROWING = new Set(
  AREAS.length === 0 ? Object.keys(FULL) : AREAS.flatMap((area) => SIZES_OF[area] ?? []),
);
const at = (step: number): Sizes =>
  Object.fromEntries(
    Object.entries(FULL).map(([key, n]) => [
      key,
      key === 'votesPerProduct'
        ? n
        : Math.round(n * (GROWING.has(key) ? step : Math.min(step, STEPS[0] ?? step))),
    ]),
  ) as Sizes;

const ADMIN = '00000000-0000-4000-8000-00000000ad00';
const REPORTER = '00000000-0000-4000-9100-000000000001';
const SYLLABLES =
  'ka ro mi ta ne lo vi sa du be ri mo za ce fi go ha ju ke li ma no pe qu ra si to ul va we xa yo ze an el in or us ay ex'.split(
    ' ',
  );
const KINDS = ['Supply', 'Farms', 'Exotics', 'Garden', 'Collective', 'Harvest', 'Labs', 'Organics'];
const STATES = ['CA', 'CO', 'WA', 'OR', 'NV', 'MI', 'IL', 'MA', 'NY', 'NJ', 'AZ', 'MO', 'OK', 'MT', 'ME'];
const CATEGORIES: string[] = [...PRODUCT_CATEGORIES];
const WORDS =
  `cannabis hemp licensing regulators dispensary cultivation growers harvest market prices wholesale retail
flower edibles vape concentrates tax revenue legislature senate governor ballot legalization medical patients
sales record quarterly earnings stock shares index investors merger acquisition bankruptcy layoffs expansion
facility greenhouse outdoor indoor testing laboratory potency contamination recall pesticide compliance
enforcement raid license lottery equity expungement banking rescheduling federal hearing court lawsuit ruling
appeal terpenes strain genetics seeds nursery distributor delivery lounge tourism festival award packaging
labeling advertising survey research university clinical trial veterans ohio michigan colorado california
oregon washington florida texas canada germany thailand export import shortage surplus inventory payments
insurance zoning moratorium council county referendum petition campaign poll voters`
    .split(/\s+/)
    .filter(Boolean);

/** Three syllables picked from n, as SQL computes them in the seed (the same names both sides). */
const word = (n: number) =>
  (SYLLABLES[n % 40] as string) + SYLLABLES[Math.floor(n / 40) % 40] + SYLLABLES[Math.floor(n / 1600) % 40];
const mix = (g: number, k: number) => Number((BigInt(g) * BigInt(k)) % 64000n);
const sqlWord = (expr: string) =>
  `(s[1 + (${expr}) % 40] || s[1 + ((${expr}) / 40) % 40] || s[1 + ((${expr}) / 1600) % 40])`;
const sqlMix = (k: number) => `((g::bigint * ${k}) % 64000)::int`;
// A brand's second word also moves on by one for every 64,000 brands, so that no two brands share a
// name at any step (the words alone repeat every 64,000: at 100× each name would be 31 brands', and a
// search for one name would find 31 times as many brands). Brands up to 64,000 keep their names.
const brandMix = (g: number) => (mix(g, 104729) + Math.floor(g / 64000)) % 64000;
const sqlBrandMix = '((g::bigint * 104729 + g / 64000) % 64000)::int';
/**
 * Drops a table's secondary indexes (not those behind a constraint: its keys and unique checks stay)
 * for a bulk load, and returns what builds them again from their own definitions, in the same
 * transaction. A step that adds no rows to the table leaves its indexes alone.
 */
async function dropSecondaryIndexes(
  tx: Queryable,
  schema: string,
  name: string,
  adding: boolean,
): Promise<() => Promise<void>> {
  if (!adding) return async () => {};
  const { rows } = await tx.query<{ name: string; definition: string }>(
    `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
     from pg_index i join pg_class c on c.oid = i.indexrelid
     where i.indrelid = format('%I.%I', $1::text, $2::text)::regclass and not i.indisunique
       and not exists (select from pg_constraint k where k.conindid = i.indexrelid)`,
    [schema, name],
  );
  for (const index of rows) await tx.query(`drop index "${schema}"."${index.name}"`);
  return async () => {
    for (const { definition } of rows) await tx.query(definition);
  };
}

/** Prints how long each part of a step's seed took (where an hour at 10× goes). */
function phases(): (label: string) => void {
  let last = performance.now();
  return (label) => {
    const now = performance.now();
    console.log(`  seeded ${label} in ${((now - last) / 1000).toFixed(0)} s`);
    last = now;
  };
}

/**
 * Members as sign-up leaves them: an account, its profile (the sign-up trigger's username, the
 * trial its own triggers set and remember) and its search words (decision 255). The first new member
 * signs up through the triggers themselves; the rest are written set-based with the triggers off,
 * because 10,000,000 sign-ups one trigger chain at a time are hours here (72 s for 100,000). The
 * seed then checks that a set-based member's rows are the trigger-made one's in every column not
 * derived from the address, so the two routes cannot drift apart. The members' secondary indexes
 * (their words' GIN without a pending list) are built once after them.
 */
async function seedMembers(db: TestServer['db'], from: number, to: number): Promise<void> {
  if (to <= from) return;
  const rebuild = [
    await dropSecondaryIndexes(db, 'auth', 'users', true),
    await dropSecondaryIndexes(db, 'public', 'profiles', true),
    await dropSecondaryIndexes(db, 'private', 'member_search', true),
  ];
  const user = (i: string) => `('00000000-0000-4000-9300-' || lpad(to_hex(${i}), 12, '0'))::uuid`;
  const insertUsers = (q: Pick<TestServer['db'], 'query'>, first: number, last: number) =>
    q.query(
      `insert into auth.users (id, email, aud, role, created_at)
       select ${user('i')}, 'member' || i || '@bench.example', 'authenticated', 'authenticated',
         now() - make_interval(mins => i)
       from generate_series($1::int, $2::int) i`,
      [first, last],
    );
  await insertUsers(db, from + 1, from + 1);
  for (let start = from + 1; start < to; start += 50_000) {
    await db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      const last = Math.min(to, start + 50_000);
      await insertUsers(tx, start + 1, last);
      // What handle_new_user, guard_profile, guard_timestamps and limit_trial make of a new address,
      // the trial remembered and the words stored from the profiles as written.
      await tx.query(
        `with p as (
           insert into public.profiles (user_id, email, username)
           select ${user('i')}, 'member' || i || '@bench.example', 'member' || i
           from generate_series($1::int, $2::int) i
           returning user_id, email, username, full_name, trial_ends_at
         ), trial as (
           insert into private.trial_history (mailbox_hash, trial_ends_at)
           select private.mailbox_hash(p.email), p.trial_ends_at from p
           on conflict (mailbox_hash) do nothing
         )
         insert into private.member_search (user_id, words)
         select p.user_id, private.member_search_words(p.email, p.username, p.full_name) from p`,
        [start + 1, last],
      );
    });
  }
  for (const index of rebuild) await index();
  // One member in 10,000 suspended, through auth.users as the admins' screen suspends (its trigger
  // keeps private.member_bans, decision 281).
  await db.query(
    `update auth.users set banned_until = now() + interval '100 years'
     where id in (select ${user('i')} from generate_series($1::int, $2::int) i where i % 10000 = 0)`,
    [from + 1, to],
  );
  if (to - from < 2) return;
  // The trigger-made member (from + 1) beside a set-based one (from + 2).
  const { rows } = await db.query<{ same: boolean }>(
    `with m as (
       select i, p, w.words, exists (select from private.trial_history t
           where t.mailbox_hash = private.mailbox_hash(p.email) and t.trial_ends_at = p.trial_ends_at) as trial,
         (select count(*) from public.notifications n where n.user_id = p.user_id) as notes
       from unnest(array[$1::int + 1, $1::int + 2]) i
       join public.profiles p on p.user_id = ${user('i')}
       join private.member_search w on w.user_id = p.user_id
     )
     select count(*) = 2
       and count(distinct to_jsonb(p) - array['user_id', 'email', 'username', 'created_at', 'updated_at', 'trial_ends_at']) = 1
       and count(distinct (p).trial_ends_at - (p).created_at) = 1
       and bool_and(words = private.member_search_words((p).email, (p).username, (p).full_name))
       and bool_and((p).username = 'member' || i and (p).email = 'member' || i || '@bench.example')
       and bool_and(trial) and count(distinct notes) = 1 as same
     from m`,
    [from],
  );
  if (!rows[0]?.same)
    throw new Error('seed: a set-based member differs from the one the sign-up triggers made');
}

async function grow(server: TestServer, from: Sizes, to: Sizes): Promise<void> {
  const { db } = server;
  const done = phases();
  await db.transaction(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    await tx.query(`set local maintenance_work_mem = '512MB'`);
    // Pass or Gas: a brand per 25 products, 40 votes a product from a pool of voters (bench/votes.ts).
    const voters = (n: Sizes) => Math.ceil((n.products * n.votesPerProduct) / 50);
    await tx.query(
      `insert into auth.users (id, email, aud, role, email_confirmed_at, created_at)
       select ('00000000-0000-4000-9000-' || lpad(to_hex(g), 12, '0'))::uuid, 'bench-voter-' || g || '@example.com',
         'authenticated', 'authenticated', now(), now() - interval '30 days'
       from generate_series($1::int + 1, $2::int) g`,
      [voters(from), voters(to)],
    );
    await tx.query(
      `insert into public.brands (id, name, slug)
       select ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'Vote brand ' || g, 'vote-brand-' || g
       from generate_series($1::int / 25 + 1, $2::int / 25) g`,
      [from.products, to.products],
    );
    // The same for the products and the brands (ten and eleven indexes, GIN for their names' trigrams,
    // meetings, runs and marks): each built once from the rows, not entered row by row (the last
    // row-by-row 100× seed was stopped after 21 minutes, still writing products); built again after
    // the brands' products below.
    const brandsGrow = to.brands > from.brands;
    const rebuildProducts = await dropSecondaryIndexes(
      tx,
      'public',
      'products',
      brandsGrow || to.products > from.products,
    );
    const rebuildBrands = await dropSecondaryIndexes(tx, 'public', 'brands', brandsGrow);
    await tx.query(
      `insert into public.products (id, name, category, strain_type, created_at, brand_id)
       select 'pg-' || g, ${sqlWord(sqlMix(7919))} || ' ' || ${sqlWord(sqlMix(31337))} || ' ' || g, c[1 + g % 8],
         (array['indica','sativa','hybrid','n/a'])[1 + g % 4], now() - make_interval(mins => g),
         ('00000000-0000-4000-8000-' || lpad(to_hex(1 + (g - 1) / 25), 12, '0'))::uuid
       from generate_series($1::int + 1, $2::int) g, (select $3::text[] as s, $4::text[] as c) a`,
      [from.products, to.products, SYLLABLES, CATEGORIES],
    );
    // A bulk load's usual order: the votes' secondary indexes are built again after the rows are in
    // (the same definitions, in the same transaction); the unique ones stay for the conflict check.
    const rebuildVotes = await dropSecondaryIndexes(
      tx,
      'public',
      'product_votes',
      to.products > from.products,
    );
    await tx.query(
      `insert into public.product_votes (user_id, product_id, vote_type, status, counts_from, created_at, updated_at)
       select ('00000000-0000-4000-9000-' || lpad(to_hex(1 + (g * 40 + k) % $3::int), 12, '0'))::uuid, 'pg-' || g,
         case when (g * 7 + k * 13) % 10 < 7 then 'gas' else 'pass' end, 'counted', now() - interval '30 days',
         now() - make_interval(secs => (g * 40 + k) % 2592000), now() - make_interval(secs => (g * 40 + k) % 2592000)
       from generate_series($1::int + 1, $2::int) g, generate_series(1, g % (2 * $4::int) + 1) k
       on conflict (user_id, product_id) do nothing`,
      [from.products, to.products, voters(to), FULL.votesPerProduct],
    );
    await rebuildVotes();
    done(`${to.products - from.products} products and their votes`);
    await tx.query(
      `insert into public.product_tallies (product_id, gas, pass, trend, last_vote_at)
       select p.id, count(*) filter (where v.vote_type = 'gas'), count(*) filter (where v.vote_type = 'pass'),
         coalesce(sum(case when v.vote_type = 'gas' then 1 else -1 end * private.votes_trend_weight(v.updated_at)), 0),
         max(v.updated_at)
       from generate_series($1::int + 1, $2::int) g
       join public.products p on p.id = 'pg-' || g
       join public.product_votes v on v.product_id = p.id
       group by p.id`,
      [from.products, to.products],
    );

    done('product tallies');

    // Brand directory (bench/brands.ts): licences, two products a brand, tallies.
    await tx.query(
      `insert into public.brands (id, name, slug, states, city, categories, licence_number, licence_state, licence_type,
         verification, verified, verified_at, verification_note, description, created_at)
       select ('00000000-0000-4000-8100-' || lpad(to_hex(g), 12, '0'))::uuid, n.name,
         regexp_replace(lower(n.name), '[^a-z0-9]+', '-', 'g') || '-' || g,
         array[st[1 + g % 15]] || case when g % 5 = 0 then array[st[1 + (g / 7) % 15]] else '{}' end,
         'City ' || (g % 300), array[c[1 + g % 8]] || case when g % 3 = 0 then array[c[1 + (g / 3) % 8]] else '{}' end,
         'LIC-' || g, st[1 + g % 15], 'Adult-use', case when g % 4 = 0 then 'verified' else 'unverified' end, g % 4 = 0,
         case when g % 4 = 0 then now() - interval '30 days' end,
         case when g % 4 = 0 then 'Checked on the state register.' end,
         'A brand made by the benchmark.', now() - make_interval(mins => g)
       from generate_series($1::int + 1, $2::int) g, (select $3::text[] as s, $4::text[] as c, $5::text[] as st, $6::text[] as k) a,
         lateral (select initcap(${sqlWord(sqlMix(7919))}) || ' ' || initcap(${sqlWord(sqlBrandMix)}) || ' ' || k[1 + g % 8] as name) n`,
      [from.brands, to.brands, SYLLABLES, CATEGORIES, STATES, KINDS],
    );
    await tx.query(
      `insert into public.brand_licences (brand_id, number, state, type, verification, verified_at, verification_note, is_primary)
       select b.id, b.licence_number, b.licence_state, b.licence_type, b.verification, b.verified_at, b.verification_note, true
       from generate_series($1::int + 1, $2::int) g
       join public.brands b on b.id = ('00000000-0000-4000-8100-' || lpad(to_hex(g), 12, '0'))::uuid
       union all
       select b.id, b.licence_number || '-2', 'ZZ', 'Manufacturer', 'unverified', null, null, false
       from generate_series($1::int + 1, $2::int) g
       join public.brands b on b.id = ('00000000-0000-4000-8100-' || lpad(to_hex(g), 12, '0'))::uuid
       where g % 3 = 0`,
      [from.brands, to.brands],
    );
    await tx.query(
      `insert into public.products (id, name, category, brand_id, created_at)
       select 'bd-' || g || '-' || k, b.name || ' product ' || k, b.categories[1], b.id, b.created_at
       from generate_series($1::int + 1, $2::int) g
       join public.brands b on b.id = ('00000000-0000-4000-8100-' || lpad(to_hex(g), 12, '0'))::uuid,
         generate_series(1, 2) k`,
      [from.brands, to.brands],
    );
    await tx.query(
      `insert into public.product_tallies (product_id, gas, pass)
       select 'bd-' || g || '-' || k, (g * 7 + k) % 40, (g * 3 + k) % 20
       from generate_series($1::int + 1, $2::int) g, generate_series(1, 2) k`,
      [from.brands, to.brands],
    );
    await tx.query(
      `insert into public.brand_tallies (brand_id, products, gas, pass)
       select p.brand_id, count(*), sum(t.gas), sum(t.pass)
       from public.products p join public.product_tallies t on t.product_id = p.id
       where p.brand_id is not null group by p.brand_id
       on conflict (brand_id) do update set products = excluded.products, gas = excluded.gas, pass = excluded.pass`,
    );
    await rebuildProducts();
    await rebuildBrands();
    // The directory's kept count of live brands, which the triggers would have moved (decision 250).
    await tx.query('select private.brands_recount_live()');

    done('brands, licences, products and tallies');

    // Scammer Network (bench/reports.ts): published reports, one in a hundred waiting for review.
    // Their indexes (the words', the windows', the amounts', the identifiers') built once after them.
    const rebuildReports = await dropSecondaryIndexes(
      tx,
      'public',
      'scammer_reports',
      to.reports > from.reports,
    );
    const rebuildIdentifiers = await dropSecondaryIndexes(
      tx,
      'private',
      'scammer_report_identifiers',
      to.reports > from.reports,
    );
    await tx.query(
      `insert into public.scammer_reports (id, scammer_name, scammer_description, incident_details, location,
         business_name, contact_info, amount_scammed, date_of_incident, reporter_user_id, status, reviewed_at,
         status_changed_at, created_at, updated_at)
       select ('00000000-0000-4000-9200-' || lpad(to_hex(g), 12, '0'))::uuid,
         initcap(${sqlWord(sqlMix(7919))}) || ' ' || initcap(${sqlWord(sqlMix(104729))}),
         'Sold product that never arrived.', 'Paid upfront by transfer, the seller stopped answering after payment.',
         (array['Denver, CO','Seattle, WA','Portland, OR','Los Angeles, CA','Detroit, MI','Toronto, ON'])[1 + g % 6],
         initcap(${sqlWord(sqlMix(31337))}) || ' ' || k[1 + g % 8],
         format('(%s) 555-%s, deals%s@gmail.com, www.shop%s.com', 200 + g % 700, lpad((g % 10000)::text, 4, '0'), g, g),
         (g % 5000) + 0.5, date '2026-01-01' + (g % 300), $5::uuid,
         case when g % 100 = 0 then 'submitted' else 'published' end,
         case when g % 100 = 0 then null else now() - make_interval(mins => g) end,
         now() - make_interval(mins => g), now() - make_interval(mins => g + 60), now() - make_interval(mins => g)
       from generate_series($1::int + 1, $2::int) g, (select $3::text[] as s, $4::text[] as k) a`,
      [from.reports, to.reports, SYLLABLES, KINDS, REPORTER],
    );
    await tx.query(
      `insert into private.scammer_report_identifiers (report_id, kind, value)
       select ('00000000-0000-4000-9200-' || lpad(to_hex(g), 12, '0'))::uuid, x.kind, x.value
       from generate_series($1::int + 1, $2::int) g,
         lateral (values
           ('phone', '+1' || (200 + g % 700)::text || '555' || lpad((g % 10000)::text, 4, '0')),
           ('email', 'deals' || g || '@gmail.com'),
           ('domain', 'shop' || g || '.com')) x(kind, value)`,
      [from.reports, to.reports],
    );
    await rebuildReports();
    await rebuildIdentifiers();

    done('reports and identifiers');

    // Admin lists (bench/admin.ts): bookings, audit rows, security events, posts.
    await tx.query(
      `insert into public.bookings (full_name, email, product_name, product_category, booking_date, booking_time, status)
       select 'Booker ' || i, 'booker' || i || '@bench.example', 'Product ' || i, c[1 + i % 8],
         to_char(current_date + 1 + (i % 300), 'YYYY-MM-DD'),
         (array['09:00','09:30','10:00','10:30','11:00','11:30','12:00','12:30','13:00','13:30','14:00','14:30','15:00','15:30','16:00','16:30','17:00'])[1 + (i / 300) % 17],
         case when i <= 5100 and i % 4 = 1 then 'confirmed' when i % 4 = 2 then 'declined' else 'new' end
       from generate_series($1::int + 1, $2::int) i, (select $3::text[] as c) a`,
      [from.bookings, to.bookings, CATEGORIES],
    );
    await tx.query(
      `insert into public.security_events (type, category, action, description, risk_level)
       select 'bench', 'bench', 'probe', 'event ' || i, (array['low','medium','high','critical'])[1 + i % 4]
       from generate_series($1::int + 1, $2::int) i`,
      [from.events, to.events],
    );
    await tx.query(
      `insert into public.admin_posts (title, content, author_id, status, created_at)
       select 'Post ' || i, 'What the team wrote, number ' || i || '.', $3::uuid,
         case when i % 10 = 0 then 'draft' else 'published' end, now() - make_interval(mins => i)
       from generate_series($1::int + 1, $2::int) i`,
      [from.posts, to.posts, ADMIN],
    );
  });
  done('bookings, security events and posts (committed)');
  // Audit rows through the function the product writes them with.
  await db.query(
    `select private.audit('bench.seed', 'public.bookings', i::text, null, jsonb_build_object('i', i))
     from generate_series($1::int + 1, $2::int) i`,
    [from.audit, to.audit],
  );
  done('audit rows');
  await seedMembers(db, from.members, to.members);
  done('members');
  // News (bench/news.ts): articles through the table's own triggers, in batches.
  const [{ id: sourceId } = { id: '' }] = (
    await db.query<{ id: string }>(`select id from public.news_sources where name = 'Bench publisher'`)
  ).rows;
  for (let start = from.articles; start < to.articles; start += 20_000) {
    await db.query(
      `insert into public.news_articles (id, story_id, source_id, guid, title, url, url_key, summary, source_name,
         category, published_at, fingerprint)
       select g.id, g.id, $1::uuid, 'fill-' || g.i, g.title, 'https://fill.example/' || g.i, 'fill.example/' || g.i,
         g.summary, 'Bench publisher', (array['Policy','Business','Markets','Culture','Hemp'])[1 + g.i % 5],
         now() - (g.i * interval '1 minute'), lower(g.title)
       from (
         select gen_random_uuid() as id, i,
           (select string_agg(w[1 + ((i::bigint * 2654435761 + k * 40503) % cardinality(w))::int], ' ') from generate_series(1, 8) k) as title,
           (select string_agg(w[1 + ((i::bigint * 40503 + k * 2654435761) % cardinality(w))::int], ' ') from generate_series(1, 30) k) as summary
         from generate_series($2::int + 1, $3::int) i, (select $4::text[] as w) a
       ) g`,
      [sourceId, start, Math.min(to.articles, start + 20_000), WORDS],
    );
  }
  done('news articles');
  // The spelling vocabulary and the words that complete a typed word (decision 251), as the reports'
  // trigger keeps them: the new reports' words, once.
  await db.query(
    `with words as (
       select distinct t.lexeme
       from generate_series($1::int + 1, $2::int) g
       join public.scammer_reports r on r.id = ('00000000-0000-4000-9200-' || lpad(to_hex(g), 12, '0'))::uuid,
         unnest(to_tsvector('simple'::regconfig, r.search_text)) t
       where r.status = 'published' and t.lexeme ~ '^[[:alpha:]]'
     ), spelled as (
       insert into private.scammer_report_words (word)
       select lexeme from words where lexeme ~ '^[[:alpha:]]{3,100}$'
       on conflict do nothing
     )
     insert into private.scammer_report_lexemes (lexeme) select lexeme from words on conflict do nothing`,
    [from.reports, to.reports],
  );
  done('the report words');
  await db.exec('vacuum analyze');
  await db.exec('checkpoint');
  done('vacuum, analyze and checkpoint');
}

interface Call {
  area: string;
  name: string;
  /** A request for the i-th sample at the current sizes. */
  request(i: number, n: Sizes): { path: string; body?: object; prefer?: string };
  as: 'anon' | 'reader' | 'admin';
  /** Calls made one after another in a sample; the last one is timed (a keyset page). */
  pages?: number;
}

const rpc = (fn: string, body: object) => ({ path: `/rest/v1/rpc/${fn}`, body });
const pick = (i: number, count: number) => 1 + ((i * 7919) % Math.max(1, count));
const newsWord = (i: number) => WORDS[(i * 31) % WORDS.length] as string;
const PRODUCT_COLUMNS =
  'id,name,brand_id,brand_name,brand_slug,category,strain_type,thc_min,thc_max,cbd_min,cbd_max,image_url,description,is_sample,created_at,gas,pass,counted,pending,held,gas_share,wilson,trend_key,trending_score,last_vote_at';
const MEMBER_COLUMNS =
  'id,email,username,full_name,avatar_url,created_at,last_sign_in_at,suspended,is_admin,subscription_status,subscription_expires_at,trial_ends_at,report_count,booking_count';
/** The admins' member search as the page asks it (decision 280), newest first. */
const memberSearch = (typed: string, filters: { status?: 'suspended' | 'active' } = {}) =>
  rpc('admin_find_members', { q: typed, page_offset: 0, page_rows: 25, ...filters });
const REPORT_COLUMNS = 'id,scammer_name,business_name,status,created_at,reviewed_at';
const rankings = (query: string) => ({
  path: `/rest/v1/product_rankings?select=${PRODUCT_COLUMNS}&${query}&limit=25`,
});
const brandName = (g: number) =>
  `${word(mix(g, 7919))} ${word(brandMix(g))}`.replace(/\b\w/g, (c) => c.toUpperCase());

const ADMIN_BRAND_COLUMNS =
  'id,name,slug,description,logo_url,website,social_links,states,city,categories,licence_number,licence_state,licence_type,licence_expires_on,verification,shown_verification,verified_at,verification_note,archived_at,merged_into,is_sample,created_at,updated_at';
const ADMIN_PRODUCT_COLUMNS =
  'id,name,brand_id,category,strain_type,thc_min,thc_max,cbd_min,cbd_max,image_url,description,archived_at,is_sample,created_at';
/** The admins' brand list as the page asks it (decision 260). */
const adminBrands = (body: object) => ({
  path: `/rest/v1/rpc/admin_find_brands?select=${ADMIN_BRAND_COLUMNS}`,
  body: { archived: false, max_rows: 100, ...body },
});
/** The admins' product list as the page asks it (decision 262). */
const adminProducts = (body: object) => ({
  path: `/rest/v1/rpc/admin_find_products?select=${ADMIN_PRODUCT_COLUMNS}`,
  body: { max_rows: 200, ...body },
});
/** Brand g's whole name, as the seed writes it. */
const fullBrandName = (g: number) => `${brandName(g)} ${KINDS[g % KINDS.length]}`;

const CALLS: Call[] = [
  { area: 'news', name: 'feed, first page', as: 'anon', request: () => rpc('news_feed', {}) },
  {
    area: 'news',
    name: 'feed, category',
    as: 'anon',
    request: () => rpc('news_feed', { p_category: 'Hemp' }),
  },
  {
    area: 'news',
    name: 'search 1 word, newest',
    as: 'anon',
    request: (i) => rpc('news_feed', { p_query: newsWord(i) }),
  },
  {
    area: 'news',
    name: 'search 2 words, newest',
    as: 'anon',
    request: (i) => rpc('news_feed', { p_query: `${newsWord(i)} ${newsWord(i + 7)}` }),
  },
  {
    area: 'news',
    name: 'search 1 word, relevance',
    as: 'anon',
    request: (i) => rpc('news_feed', { p_query: newsWord(i), p_sort: 'relevance' }),
  },
  {
    area: 'news',
    name: 'search, 5th page (keyset)',
    as: 'anon',
    pages: 5,
    request: (i) => rpc('news_feed', { p_query: newsWord(i) }),
  },
  {
    area: 'news',
    name: 'admin: articles, newest',
    as: 'admin',
    // /admin/news as it asks (decision 257).
    request: () => rpc('admin_find_articles', { max_rows: 30 }),
  },
  {
    area: 'news',
    name: 'admin: articles, title search',
    as: 'admin',
    // Two words no title holds side by side (the seed's titles put a word 23 places after the one
    // before it in the vocabulary): each word is common, the pair absent.
    request: (i) => rpc('admin_find_articles', { q: `${newsWord(i)} ${newsWord(i * 3 + 1)}`, max_rows: 30 }),
  },
  {
    area: 'news',
    name: 'admin: articles, a common title word',
    as: 'admin',
    // One word of the vocabulary: in about one title in fourteen, spread through the newest first.
    request: (i) => rpc('admin_find_articles', { q: newsWord(i), max_rows: 30 }),
  },
  {
    area: 'Pass or Gas',
    name: 'top, first page',
    as: 'anon',
    request: () => rankings('order=wilson.desc,counted.desc,id.asc'),
  },
  {
    area: 'Pass or Gas',
    name: 'trending, first page',
    as: 'anon',
    request: () => rankings('order=trend_key.desc,id.asc'),
  },
  {
    area: 'Pass or Gas',
    name: 'newest, category',
    as: 'anon',
    request: () => rankings('category=eq.Edibles&order=created_at.desc,id.asc'),
  },
  {
    area: 'Pass or Gas',
    name: 'name search, top',
    as: 'anon',
    // As the page asks it since decision 256.
    request: (i, n) => ({
      path: `/rest/v1/rpc/search_products?select=${PRODUCT_COLUMNS}&order=wilson.desc,counted.desc,id.asc`,
      body: { q: word(mix(pick(i, n.products), 7919)), sort: 'top', max_rows: 25 },
    }),
  },
  {
    // /admin/products as it asks: every product, archived ones included, newest first (decision 262).
    area: 'Pass or Gas',
    name: 'admin: products, newest',
    as: 'admin',
    request: () => adminProducts({}),
  },
  {
    area: 'Pass or Gas',
    name: 'admin: products, one name',
    as: 'admin',
    request: (i, n) => {
      const g = pick(i, n.products);
      return adminProducts({ q: `${word(mix(g, 7919))} ${word(mix(g, 31337))} ${g}` });
    },
  },
  {
    // Two letters no product name has together: counted through the names' short runs (decision 261).
    area: 'Pass or Gas',
    name: 'admin: products, two rare letters',
    as: 'admin',
    request: (i) => adminProducts({ q: ['qz', 'zq', 'jx', 'qq'][i % 4] as string }),
  },
  {
    area: 'brands',
    name: 'typo search',
    as: 'anon',
    request: (i, n) => {
      // A verified brand in California (every 60th: g % 4 = 0 and g % 15 = 0).
      const g = 60 * pick(i, Math.floor(n.brands / 60));
      const [first = '', second = ''] = brandName(g).toLowerCase().split(' ');
      return rpc('search_brands', { q: `${first.slice(0, 2)}${first.slice(3)} ${second}` });
    },
  },
  {
    area: 'brands',
    name: 'typo search + state + verified',
    as: 'anon',
    request: (i, n) => {
      // A verified brand in California (every 60th: g % 4 = 0 and g % 15 = 0).
      const g = 60 * pick(i, Math.floor(n.brands / 60));
      const [first = '', second = ''] = brandName(g).toLowerCase().split(' ');
      return rpc('search_brands', {
        q: `${first.slice(0, 2)}${first.slice(3)} ${second}`,
        state: 'CA',
        verified_only: true,
      });
    },
  },
  {
    area: 'brands',
    name: 'first page by name',
    as: 'anon',
    request: () => rpc('search_brands', { sort: 'name' }),
  },
  {
    area: 'brands',
    name: 'first page by score',
    as: 'anon',
    request: () => rpc('search_brands', { sort: 'score' }),
  },
  {
    area: 'brands',
    name: 'page 40 newest, category',
    as: 'anon',
    request: () => rpc('search_brands', { sort: 'newest', category: 'Edibles', page_offset: 24 * 40 }),
  },
  // The admins' brand list (decision 260), beside the data API read it replaced, in the same run.
  {
    area: 'brands',
    name: 'admin: list by name (data API, before)',
    as: 'admin',
    request: () => ({
      path: `/rest/v1/brands?select=${ADMIN_BRAND_COLUMNS}&archived_at=is.null&order=name&limit=100`,
    }),
  },
  {
    area: 'brands',
    name: 'admin: list by name',
    as: 'admin',
    request: () => adminBrands({}),
  },
  {
    area: 'brands',
    name: 'admin: one name (data API, before)',
    as: 'admin',
    request: (i, n) => ({
      path: `/rest/v1/brands?select=${ADMIN_BRAND_COLUMNS}&archived_at=is.null&name=ilike.${encodeURIComponent(`*${fullBrandName(pick(i, n.brands))}*`)}&order=name&limit=100`,
    }),
  },
  {
    area: 'brands',
    name: 'admin: one name',
    as: 'admin',
    request: (i, n) => adminBrands({ q: fullBrandName(pick(i, n.brands)) }),
  },
  {
    // A word one brand in eight has, spread through the name order.
    area: 'brands',
    name: 'admin: a common word',
    as: 'admin',
    request: (i) => adminBrands({ q: (KINDS[i % KINDS.length] as string).toLowerCase() }),
  },
  {
    area: 'reports',
    name: "search, typo'd name",
    as: 'reader',
    request: (i, n) => {
      const g = pick(i, n.reports);
      const last = word(mix(g, 104729));
      return rpc('search_scammer_reports', {
        query: `${word(mix(g, 7919))} ${last.slice(0, 2)}${last.slice(3)}`,
      });
    },
  },
  {
    area: 'reports',
    name: 'search, business name',
    as: 'reader',
    request: (i, n) => {
      const g = pick(i, n.reports);
      return rpc('search_scammer_reports', { query: `${word(mix(g, 31337))} ${KINDS[g % 8]}` });
    },
  },
  {
    area: 'reports',
    name: 'search, phone',
    as: 'reader',
    request: (i, n) => {
      const g = pick(i, n.reports);
      return rpc('search_scammer_reports', {
        query: `+1 ${200 + (g % 700)}.555.${String(g % 10000).padStart(4, '0')}`,
      });
    },
  },
  {
    area: 'reports',
    name: 'newest, no query',
    as: 'reader',
    request: () => rpc('search_scammer_reports', {}),
  },
  {
    area: 'reports',
    name: 'location + amount, by amount',
    as: 'reader',
    request: () =>
      rpc('search_scammer_reports', {
        location: 'denver',
        amount_min: 1000,
        amount_max: 2000,
        sort: 'amount',
      }),
  },
  {
    area: 'admin',
    name: 'reports queue',
    as: 'admin',
    request: () => ({
      path: `/rest/v1/scammer_reports?select=${REPORT_COLUMNS}&status=in.(submitted,under_review)&order=created_at.asc&limit=100`,
    }),
  },
  {
    area: 'admin',
    name: 'reports published',
    as: 'admin',
    request: () => ({
      path: `/rest/v1/scammer_reports?select=${REPORT_COLUMNS}&status=eq.published&order=reviewed_at.desc&limit=100`,
    }),
  },
  {
    area: 'admin',
    name: 'members, page 1',
    as: 'admin',
    request: () => ({
      path: `/rest/v1/admin_members?select=${MEMBER_COLUMNS}&order=created_at.desc.nullslast,id.desc&offset=0&limit=25`,
      prefer: 'count=estimated', // as the admin lists ask (decision 252)
    }),
  },
  {
    area: 'admin',
    name: 'members, search',
    as: 'admin',
    request: (i, n) => memberSearch(`member${pick(i, n.members)}`),
  },
  {
    // The same with a word every member's address has (as "gmail" would be): decision 255.
    area: 'admin',
    name: 'members, search with the domain',
    as: 'admin',
    request: (i, n) => memberSearch(`member${pick(i, n.members)}@bench`),
  },
  {
    // The suspended (one member in 10,000) among everyone the domain finds: decision 281.
    area: 'admin',
    name: 'members, suspended, by the domain',
    as: 'admin',
    request: () => memberSearch('bench', { status: 'suspended' }),
  },
  {
    area: 'admin',
    name: 'bookings, page 1',
    as: 'admin',
    request: () => ({
      path: '/rest/v1/admin_bookings?select=*&order=created_at.desc,id.desc&offset=0&limit=25',
      prefer: 'count=estimated', // as the admin lists ask (decision 252)
    }),
  },
  {
    area: 'admin',
    name: 'bookings, status + category',
    as: 'admin',
    request: () => ({
      path: '/rest/v1/admin_bookings?select=*&status=eq.new&product_category=eq.Flower&order=created_at.desc,id.desc&offset=0&limit=25',
      prefer: 'count=estimated', // as the admin lists ask (decision 252)
    }),
  },
  {
    area: 'admin',
    name: 'audit, page 1',
    as: 'admin',
    request: () => ({
      path: '/rest/v1/admin_audit_log?select=*&order=id.desc&offset=0&limit=25',
      prefer: 'count=estimated', // as the admin lists ask (decision 252)
    }),
  },
  {
    area: 'admin',
    name: 'security events, high',
    as: 'admin',
    request: () => ({
      path: '/rest/v1/security_events?select=id,created_at,type,category,action,description,risk_level,user_id,ip&risk_level=eq.high&order=created_at.desc,id.desc&offset=0&limit=25',
      prefer: 'count=estimated', // as the admin lists ask (decision 252)
    }),
  },
  {
    area: 'admin',
    name: 'posts, page 1',
    as: 'admin',
    request: () => ({
      path: '/rest/v1/admin_posts?select=id,title,content,body_html,featured,status,publish_at,media_urls,created_at,updated_at&order=created_at.desc,id.desc&offset=0&limit=25',
      prefer: 'count=estimated', // as the admin lists ask (decision 252)
    }),
  },
];

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

async function main() {
  const started = performance.now();
  console.log(
    `scale bench, PostgreSQL, steps ${STEPS.join(', ')} of today's sizes${AREAS.length > 0 ? `, areas ${AREAS.join(', ')}` : ''}, ${FULL.votesPerProduct} votes a product`,
  );
  const server = await startTestServer({ DEMO_CONTENT: 'false', TRUST_PROXY: '127.0.0.1' });
  try {
    await server.db.query(
      `insert into auth.users (id, email, aud, role, email_confirmed_at, created_at) values
         ($1, 'admin@bench.example', 'authenticated', 'authenticated', now(), now()),
         ($2, 'bench-reporter@example.com', 'authenticated', 'authenticated', now(), now())`,
      [ADMIN, REPORTER],
    );
    await server.db.query(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [ADMIN]);
    await server.db.query(
      `insert into public.news_sources (name, feed_url, category) values ('Bench publisher', 'https://fill.example/feed', 'Policy')`,
    );
    // Each step's tokens are new: the 100× step seeds for over an hour, and a member's access token
    // lasts one (the reports' calls at 100× were all refused "JWT expired" before this).
    const tokens = { anon: server.anonKey, reader: '', admin: '' };
    const signIn = async (step: number) => {
      tokens.admin = await new SignJWT({ role: 'authenticated', aud: 'authenticated' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(ADMIN)
        .setIssuedAt()
        .setExpirationTime('6h')
        .sign(new TextEncoder().encode(server.jwtSecret));
      // A reader of the Scammer Network: a new member, whose trial gives access (bench/reports.ts).
      tokens.reader = (await signedInMember(server, `bench-reader-${step}-${Date.now()}@example.com`)).token;
    };

    const send = async (call: Call, request: { path: string; body?: object; prefer?: string }) => {
      const start = performance.now();
      const response = await fetch(`${server.url}${request.path}`, {
        method: request.body ? 'POST' : 'GET',
        headers: {
          apikey: server.anonKey,
          authorization: `Bearer ${tokens[call.as]}`,
          'content-type': 'application/json',
          ...(request.prefer ? { prefer: request.prefer } : {}),
        },
        ...(request.body ? { body: JSON.stringify(request.body) } : {}),
      });
      const text = await response.text();
      if (response.status >= 300)
        throw new Error(`${call.name}: HTTP ${response.status} ${text.slice(0, 300)}`);
      // A list, or a page of the admins' member search ({ members, total, approximate }).
      const answer = JSON.parse(text) as { id: string; published_at: string }[] | { members: [] };
      return { ms: performance.now() - start, rows: Array.isArray(answer) ? answer : answer.members };
    };

    const results = new Map<string, { call: Call; p95: number[]; rows: number[]; failed: number[] }>();
    let have = at(0);
    for (const step of STEPS) {
      const want = at(step);
      const seeding = performance.now();
      await grow(server, have, want);
      have = want;
      await signIn(step);
      console.log(
        `step ${step}: ${want.articles} articles, ${want.products} products, ${want.brands} brands, ${want.reports} reports, ${want.members} members; seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s`,
      );
      for (const call of CALLS.filter(({ area }) => AREAS.length === 0 || AREAS.includes(areaKey(area)))) {
        const samples: number[] = [];
        let rows = 0;
        // A request that fails (an error status, a statement timeout) is counted and the call goes on:
        // one call past its limit at a large step must not lose the others' figures.
        let failed = 0;
        let failure = '';
        for (let i = 0; i < REQUESTS + WARM_UP; i += 1) {
          try {
            let request = call.request(i, want);
            let answer = await send(call, request);
            for (let page = 1; page < (call.pages ?? 1); page += 1) {
              const last = answer.rows[answer.rows.length - 1];
              if (!last) break;
              request = {
                ...request,
                body: { ...request.body, p_before_at: last.published_at, p_before_id: last.id },
              };
              answer = await send(call, request);
            }
            if (i >= WARM_UP) samples.push(answer.ms);
            rows += answer.rows.length;
          } catch (error) {
            failed += 1;
            failure = (error as Error).message;
            // Three failures before any answer: the call cannot answer at this size; stop asking.
            if (failed >= 3 && samples.length === 0 && rows === 0) break;
          }
        }
        const key = `${call.area}: ${call.name}`;
        const figure = samples.length > 0 ? p95(samples) : Number.NaN;
        const entry = results.get(key) ?? { call, p95: [], rows: [], failed: [] };
        entry.p95.push(figure);
        entry.rows.push(Math.round(rows / (REQUESTS + WARM_UP)));
        entry.failed.push(failed);
        results.set(key, entry);
        console.log(
          `  ${key}: p95 ${figure.toFixed(1)} ms${failed > 0 ? `, ${failed} failed (${failure.slice(0, 160)})` : ''}`,
        );
      }
    }
    if (EXPLAIN) await explain(server);
    table(
      [...results.entries()].map(([key, entry]) => ({
        call: key,
        ...Object.fromEntries(STEPS.map((step, index) => [`p95 ms @${step}`, entry.p95[index]?.toFixed(1)])),
        [`×${Math.round((STEPS.at(-1) ?? 1) / (STEPS[0] ?? 1))} data`]: (
          (entry.p95.at(-1) ?? 0) / (entry.p95[0] || 1)
        ).toFixed(2),
        'rows (last)': entry.rows.at(-1),
        failed: entry.failed.join(' / '),
      })),
    );
    const load = (await import('node:os')).loadavg().map((n) => n.toFixed(2));
    console.log(
      `load average at the end: ${load.join(' ')}; took ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    if (KEEP) {
      // --keep: the server and its database stay up for a closer look until the bench is stopped.
      const { rows } = await server.db.query<{ name: string }>('select current_database() as name');
      console.log(
        `kept: database ${rows[0]?.name}, server ${server.url}, anon key ${server.anonKey}; Ctrl-C ends it`,
      );
      await new Promise((resolve) => process.once('SIGINT', resolve));
    }
  } finally {
    await server.close();
  }
}

/** The plan of a statement of each kind as the roles run it (EXPLAIN ANALYZE through the database). */
async function explain(server: TestServer): Promise<void> {
  const admin = { role: 'authenticated', claims: { sub: ADMIN, role: 'authenticated' } };
  // The search for the sixth member the bench's searches ask for at the last step: an early member,
  // whose words' matches are few and far down the newest-first order.
  const typed = memberSearchQuery(`member${pick(5, at(STEPS.at(-1) ?? 1).members)}`);
  const searched = `public.admin_member_search where search_words @@ to_tsquery('simple', $q$${typed}$q$)`;
  const statements: [string, string, object][] = [
    [
      // The page and its count as the data API reads them from the view of the admins' member search
      // (decision 255): what the page asked before decision 280.
      'members, search through the view (page)',
      `select id, email, report_count from ${searched} order by created_at desc nulls last, id desc limit 25`,
      admin,
    ],
    [
      'members, search through the view (count to 1,000)',
      `select count(*) from (select 1 from ${searched} limit 1001) c`,
      admin,
    ],
    ['news search', `select * from public.news_feed(p_query => 'hemp')`, { role: 'anon' }],
    [
      'members, page 1 (newest)',
      'select id, email, report_count from public.admin_members order by created_at desc nulls last, id desc limit 25',
      admin,
    ],
    [
      // The view's filter the page sent before decision 256 (search_products plans its own statements).
      'Pass or Gas, name search',
      `select id from public.product_rankings where name ilike '%kamita%' order by wilson desc, counted desc, id limit 25`,
      { role: 'anon' },
    ],
  ];
  for (const [label, sql, scope] of statements) {
    // A plan is wanted however long its statement runs (the roles' timeouts are what it may exceed),
    // and one that fails must not lose the others.
    try {
      const plan = await server.db.withScope(scope as never, async (tx) => {
        await tx.query(`set local statement_timeout = '10min'`);
        return tx.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${sql}`);
      });
      console.log(`\n${label}:\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`);
    } catch (error) {
      console.log(`\n${label}: no plan (${(error as Error).message})`);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
