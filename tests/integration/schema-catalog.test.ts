// @databases: both — the product schema read from the catalog.
/**
 * Properties of the product schema as a whole, read from the catalog: the contracts other services
 * rely on, RLS on every table with policies in Supabase's recommended form, an index behind every
 * foreign key, account deletion cascading everywhere, SECURITY DEFINER functions pinned to an empty
 * search_path, nothing private reachable, and migrations that can be applied again safely.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#server/db/driver.ts';
import { readMigrations } from '#server/db/migrate.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';

let handle: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
});
afterAll(() => handle?.close());

const TABLES = [
  'admin_posts',
  'bookings',
  'notifications',
  'privacy_settings',
  'product_comments',
  'product_votes',
  'profiles',
  'saved_articles',
  'scammer_reports',
  'scammer_subscriptions',
  'security_events',
  'user_roles',
];

/** News (decisions 111–113): the sources the server fetches and the articles it keeps. */
const NEWS_TABLES = ['news_articles', 'news_sources'];
/** Pass or Gas (decisions 115, 116): the catalogue, its tallies and its moderation queue. */
const PASS_OR_GAS_TABLES = [
  'brands',
  'moderation_items',
  'product_comment_likes',
  'product_comment_reports',
  'product_tallies',
  'product_vote_days',
  'products',
];
/**
 * Brand directory (decisions 119–121, 151): the brands' community tallies, representatives' claims
 * and every licence a brand holds.
 */
const BRAND_TABLES = ['brand_claims', 'brand_licences', 'brand_tallies'];
/** Market index (decisions 127–130): the indices, their points and the inputs they are computed from. */
const MARKET_TABLES = [
  'flower_price_observations',
  'index_point_revisions',
  'index_points',
  'market_close_revisions',
  'market_closes',
  'market_constituents',
  'market_indices',
  'market_securities',
];
/**
 * Read-only views: product_rankings is security invoker (the tables' policies apply); the admin views
 * run with their owner's rights and return rows only when has_role('admin') (decision 100);
 * published_scammer_reports runs with its owner's rights and returns rows only to members with
 * scammer-network access, without the reporter or redacted fields (decision 123).
 */
/**
 * Scammer Network (decisions 123–126, 141, 197): what members watch for, replies from the people named,
 * evidence files, reviewers' masked spans.
 */
const REPORTS_TABLES = [
  'scammer_watches',
  'scammer_report_replies',
  'scammer_report_evidence',
  'scammer_report_masks',
];
const VIEWS = [
  'admin_audit_log',
  'admin_bookings',
  'admin_member_search',
  'admin_members',
  'product_rankings',
  'published_scammer_report_evidence',
  'published_scammer_report_replies',
  'published_scammer_reports',
  // Corrections and withdrawals readers see (decisions 201–202).
  'scammer_report_updates',
  'withdrawn_scammer_reports',
];

async function columns(table: string) {
  const { rows } = await db.query<{ name: string; type: string; nullable: boolean; default: string | null }>(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable,
            pg_get_expr(d.adbin, d.adrelid) as default
     from pg_attribute a
     left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
     order by a.attnum`,
    [`public.${table}`],
  );
  return rows;
}

describe('the tables', () => {
  it('are exactly the product tables of product §data, each with row-level security on', async () => {
    const { rows } = await db.query<{ name: string; rls: boolean }>(
      `select c.relname as name, c.relrowsecurity as rls from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f') order by 1`,
    );
    expect(rows).toEqual(
      [
        ...TABLES,
        ...NEWS_TABLES,
        ...PASS_OR_GAS_TABLES,
        ...BRAND_TABLES,
        ...MARKET_TABLES,
        ...REPORTS_TABLES,
        ...VIEWS,
      ]
        .sort()
        .map((name) => ({ name, rls: !VIEWS.includes(name) })),
    );
  });

  it('carry the columns product §data names (the web app calls them as written there)', async () => {
    const spec: Record<string, string[]> = {
      profiles: [
        'user_id',
        'email',
        'full_name',
        'username',
        'bio',
        'avatar_url',
        'created_at',
        'trial_ends_at',
      ],
      user_roles: ['id', 'user_id', 'role', 'created_at'],
      admin_posts: ['id', 'title', 'content', 'author_id', 'featured', 'media_urls', 'status', 'created_at'],
      scammer_subscriptions: ['user_id', 'subscription_type', 'status', 'expires_at', 'created_at'],
      product_votes: ['id', 'user_id', 'product_id', 'vote_type', 'created_at'],
      product_comments: ['id', 'user_id', 'product_id', 'content', 'created_at'],
      saved_articles: [
        'id',
        'user_id',
        'article_title',
        'article_summary',
        'article_image',
        'article_source',
        'article_category',
        'article_url',
        'saved_at',
      ],
      notifications: ['id', 'user_id', 'title', 'message', 'is_read', 'created_at'],
      scammer_reports: [
        'id',
        'scammer_name',
        'scammer_description',
        'incident_details',
        'location',
        'business_name',
        'contact_info',
        'amount_scammed',
        'date_of_incident',
        'reporter_user_id',
        'status',
        'created_at',
        'updated_at',
      ],
      bookings: [
        'id',
        'user_id',
        'full_name',
        'email',
        'phone',
        'company_name',
        'product_name',
        'product_description',
        'product_category',
        'booking_date',
        'booking_time',
        'special_requests',
        'created_at',
      ],
      privacy_settings: [
        'user_id',
        'profile_visibility',
        'show_email',
        'show_activity',
        'allow_analytics',
        'allow_marketing',
        'data_processing_consent',
        'auto_delete_inactive',
        'inactive_period_months',
      ],
      security_events: [
        'id',
        'type',
        'category',
        'action',
        'description',
        'additional_data',
        'risk_level',
        'user_id',
        'ip',
        'created_at',
      ],
    };
    for (const [table, names] of Object.entries(spec)) {
      const actual = (await columns(table)).map((column) => column.name);
      expect(actual, table).toEqual(expect.arrayContaining(names));
    }
  });

  it('keep the user_roles contract exactly', async () => {
    expect(await columns('user_roles')).toEqual([
      { name: 'id', type: 'uuid', nullable: false, default: 'gen_random_uuid()' },
      { name: 'user_id', type: 'uuid', nullable: false, default: null },
      { name: 'role', type: 'text', nullable: false, default: null },
      { name: 'created_at', type: 'timestamp with time zone', nullable: false, default: 'now()' },
    ]);
    const { rows } = await db.query<{ def: string }>(
      `select pg_get_constraintdef(oid) as def from pg_constraint
       where conrelid = 'public.user_roles'::regclass and contype in ('c', 'f', 'p', 'u') order by contype, 1`,
    );
    expect(rows.map((row) => row.def)).toEqual([
      "CHECK ((role = 'admin'::text))",
      'FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE',
      'PRIMARY KEY (id)',
      'UNIQUE (user_id, role)',
    ]);
  });

  it('keep the notifications contract', async () => {
    expect(await columns('notifications')).toEqual([
      { name: 'id', type: 'uuid', nullable: false, default: 'gen_random_uuid()' },
      { name: 'user_id', type: 'uuid', nullable: false, default: null },
      { name: 'title', type: 'text', nullable: false, default: null },
      { name: 'message', type: 'text', nullable: false, default: null },
      { name: 'is_read', type: 'boolean', nullable: false, default: 'false' },
      { name: 'created_at', type: 'timestamp with time zone', nullable: false, default: 'now()' },
      // What a notification is about and where the bell takes the member (decision 100).
      { name: 'kind', type: 'text', nullable: false, default: "'general'::text" },
      { name: 'link', type: 'text', nullable: true, default: null },
    ]);
  });

  it('have one privacy row per user, so the web app’s upsert on user_id works', async () => {
    const { rows } = await db.query<{ def: string }>(
      `select pg_get_constraintdef(oid) as def from pg_constraint
       where conrelid = 'public.privacy_settings'::regclass and contype = 'p'`,
    );
    expect(rows).toEqual([{ def: 'PRIMARY KEY (user_id)' }]);
  });

  it('tie every user-owned row to its account with ON DELETE CASCADE', async () => {
    const { rows } = await db.query<{ table: string; def: string }>(
      `select format('%s.%s', n.nspname, c.relname) as table, pg_get_constraintdef(k.oid) as def
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
       where k.contype = 'f' and k.confrelid = 'auth.users'::regclass and n.nspname in ('public', 'private')
       order by 1, 2`,
    );
    expect(rows.every((row) => row.def.endsWith('ON DELETE CASCADE'))).toBe(true);
    const tables = new Set(rows.map((row) => row.table));
    for (const table of TABLES) expect(tables.has(`public.${table}`), table).toBe(true);
    expect(tables.has('private.rate_limit_attempts')).toBe(true);
    expect(tables.has('private.rate_limit_penalties')).toBe(true);
  });

  it('have an index leading with the columns of every foreign key (cascades and policies stay fast)', async () => {
    const { rows } = await db.query<{ constraint: string; indexed: boolean }>(
      `select c.conname as constraint,
              exists (
                select 1 from pg_index i
                where i.indrelid = c.conrelid
                  and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] = c.conkey
              ) as indexed
       from pg_constraint c
       where c.contype = 'f' and c.connamespace in ('public'::regnamespace, 'private'::regnamespace)`,
    );
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter((row) => !row.indexed)).toEqual([]);
  });

  it('grant the API roles no TRUNCATE, REFERENCES or TRIGGER (RLS does not cover them)', async () => {
    const { rows } = await db.query(
      `select table_name, grantee, privilege_type from information_schema.table_privileges
       where table_schema = 'public' and grantee in ('anon', 'authenticated')
         and privilege_type in ('TRUNCATE', 'REFERENCES', 'TRIGGER')`,
    );
    expect(rows).toEqual([]);
  });

  it('grant the API roles nothing in the private schema', async () => {
    const { rows } = await db.query(
      `select table_name, grantee, privilege_type from information_schema.table_privileges
       where table_schema = 'private' and grantee in ('anon', 'authenticated', 'service_role', 'PUBLIC')`,
    );
    expect(rows).toEqual([]);
  });
});

describe('the policies', () => {
  it('call auth.uid(), has_role() and has_scammer_access() once per statement: wrapped in (select …)', async () => {
    const { rows } = await db.query<{ table: string; policy: string; expr: string }>(
      `select tablename as table, policyname as policy, coalesce(qual, '') || ' ' || coalesce(with_check, '') as expr
       from pg_policies where schemaname = 'public'`,
    );
    expect(rows.length).toBeGreaterThan(40);
    const bare = rows.filter((row) => {
      const unwrapped = row.expr
        .replaceAll('( SELECT auth.uid() AS uid)', '')
        .replace(/\( SELECT has_role\('admin'::text\) AS has_role\)/g, '')
        .replaceAll('( SELECT has_scammer_access() AS has_scammer_access)', '');
      return /auth\.uid\(\)|has_role\(|has_scammer_access\(/.test(unwrapped);
    });
    expect(bare).toEqual([]);
  });

  it('exist for every table', async () => {
    const { rows } = await db.query<{ table: string }>(
      `select distinct tablename as table from pg_policies where schemaname = 'public' order by 1`,
    );
    expect(rows.map((row) => row.table)).toEqual(
      [
        ...TABLES,
        ...NEWS_TABLES,
        ...PASS_OR_GAS_TABLES,
        ...BRAND_TABLES,
        ...MARKET_TABLES,
        ...REPORTS_TABLES,
      ].sort(),
    );
  });
});

describe('the functions', () => {
  it('exposed through the Data API are exactly the remote procedures and access helpers', async () => {
    const { rows } = await db.query<{ signature: string; definer: boolean; volatility: string }>(
      `select p.oid::regprocedure::text as signature, p.prosecdef as definer, p.provolatile as volatility
       from pg_proc p where p.pronamespace = 'public'::regnamespace order by 1`,
    );
    expect(rows).toEqual([
      { signature: 'admin_dashboard_counts()', definer: true, volatility: 's' },
      // The admins' article list and search (decision 257).
      { signature: 'admin_find_articles(text,integer)', definer: true, volatility: 's' },
      // The admins' brand list and name search (decision 260).
      { signature: 'admin_find_brands(text,boolean,integer)', definer: true, volatility: 's' },
      // The admins' member search (decision 280).
      {
        signature: 'admin_find_members(text,text,text,text,integer,integer)',
        definer: true,
        volatility: 's',
      },
      // The admins' search for a report to merge a duplicate into (decision 258).
      { signature: 'admin_find_merge_targets(text,uuid)', definer: true, volatility: 's' },
      // The admins' product list and name search (decision 262).
      { signature: 'admin_find_products(text,integer)', definer: true, volatility: 's' },
      // Dashboard grants of Scammer Network access (decision 167).
      { signature: 'admin_grant_subscription(uuid,integer)', definer: true, volatility: 'v' },
      { signature: 'admin_revoke_subscription(uuid)', definer: true, volatility: 'v' },
      { signature: 'admin_set_admin_role(uuid,boolean)', definer: true, volatility: 'v' },
      { signature: 'admin_set_suspended(uuid,boolean)', definer: true, volatility: 'v' },
      { signature: 'admin_set_trial(uuid,integer)', definer: true, volatility: 'v' },
      { signature: 'admin_update_booking(uuid,text,text)', definer: true, volatility: 'v' },
      {
        signature: 'advanced_content_validation(text,text,integer,integer,boolean)',
        definer: false,
        volatility: 'i',
      },
      { signature: 'brand_page(text)', definer: false, volatility: 's' },
      { signature: 'brand_report_summary(uuid)', definer: true, volatility: 's' },
      {
        signature: 'brands_effective_verification(text,date,timestamp with time zone)',
        definer: false,
        volatility: 's',
      },
      { signature: 'brands_licence_recheck_period()', definer: false, volatility: 'i' },
      { signature: 'brands_merge(uuid,uuid)', definer: true, volatility: 'v' },
      { signature: 'brands_update_profile(uuid,text,text,text,text[])', definer: false, volatility: 'v' },
      {
        signature: 'global_rate_limit_check(text,integer,integer,text,integer)',
        definer: true,
        volatility: 'v',
      },
      { signature: 'has_role(text)', definer: true, volatility: 's' },
      { signature: 'has_scammer_access()', definer: true, volatility: 's' },
      { signature: 'linked_scammer_reports(uuid)', definer: true, volatility: 's' },
      { signature: 'log_security_event(text,text,text,text,jsonb,text)', definer: true, volatility: 'v' },
      { signature: 'market_import_closes(jsonb,boolean)', definer: true, volatility: 'v' },
      { signature: 'market_import_flower_prices(jsonb,boolean)', definer: true, volatility: 'v' },
      { signature: 'market_recompute(text)', definer: true, volatility: 'v' },
      { signature: 'market_verify(text)', definer: true, volatility: 's' },
      { signature: 'member_names(uuid[])', definer: true, volatility: 's' },
      { signature: 'member_profile(text)', definer: true, volatility: 's' },
      { signature: 'moderate_comment(uuid,text)', definer: true, volatility: 'v' },
      { signature: 'moderate_held_votes(uuid,text)', definer: true, volatility: 'v' },
      {
        signature: 'news_feed(text,text,text,timestamp with time zone,uuid,real,integer)',
        definer: true,
        volatility: 's',
      },
      {
        signature: 'progressive_rate_limit_check(text,integer,integer)',
        definer: true,
        volatility: 'v',
      },
      { signature: 'sample_retirement()', definer: true, volatility: 's' },
      { signature: 'scammer_report_for_reply(uuid)', definer: true, volatility: 's' },
      {
        signature: 'search_brands(text,text,text,boolean,text,integer,integer)',
        definer: false,
        volatility: 's',
      },
      // Pass or Gas's name search, planned without trusting the name's statistics (decision 256).
      { signature: 'search_products(text,text,text,text,text,integer)', definer: true, volatility: 's' },
      {
        signature: 'search_scammer_reports(text,text,numeric,numeric,date,date,text,integer,integer,uuid)',
        definer: true,
        volatility: 's',
      },
      // The verification as shown, a computed field of brands and licences (decision 212).
      { signature: 'shown_verification(brand_licences)', definer: false, volatility: 's' },
      { signature: 'shown_verification(brands)', definer: false, volatility: 's' },
      { signature: 'taken_booking_slots(date,date)', definer: true, volatility: 's' },
      { signature: 'votes_ranking_constants()', definer: true, volatility: 's' },
      {
        signature: 'votes_trending_score(double precision,timestamp with time zone)',
        definer: false,
        volatility: 's',
      },
    ]);
  });

  it('take the argument names of product §rpc (the JSON keys of supabase.rpc)', async () => {
    const { rows } = await db.query<{ name: string; args: string[] }>(
      `select proname as name, proargnames as args from pg_proc where pronamespace = 'public'::regnamespace order by 1`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.name, row.args]))).toEqual({
      admin_dashboard_counts: null,
      admin_find_brands: ['q', 'archived', 'max_rows'],
      // Arguments, then the columns of the rows it returns.
      admin_find_articles: [
        'q',
        'max_rows',
        'id',
        'title',
        'url',
        'source_name',
        'published_at',
        'hidden',
        'is_sample',
      ],
      admin_find_members: ['q', 'role', 'status', 'sort', 'page_offset', 'page_rows'],
      admin_find_merge_targets: ['q', 'exclude', 'id', 'scammer_name', 'business_name', 'reviewed_at'],
      admin_find_products: ['q', 'max_rows'],
      admin_grant_subscription: ['member_id', 'months'],
      admin_revoke_subscription: ['member_id'],
      admin_set_admin_role: ['member_id', 'make_admin'],
      admin_set_suspended: ['member_id', 'suspend'],
      admin_set_trial: ['member_id', 'hours'],
      admin_update_booking: ['booking_id', 'status', 'note'],
      advanced_content_validation: ['content_text', 'field_name', 'min_length', 'max_length', 'allow_html'],
      brand_page: ['p_slug'],
      brand_report_summary: ['p_brand_id'],
      brands_effective_verification: ['verification', 'expires_on', 'verified_at'],
      brands_licence_recheck_period: null,
      brands_merge: ['p_from', 'p_into'],
      brands_update_profile: ['p_brand_id', 'description', 'logo_url', 'website', 'social_links'],
      global_rate_limit_check: [
        'action_type_param',
        'max_attempts',
        'time_window_minutes',
        'ip_address',
        'max_ip_attempts',
      ],
      has_role: ['_role'],
      has_scammer_access: null,
      // Arguments, then the columns of the rows it returns (product §scammer-database linked reports).
      linked_scammer_reports: [
        'report_id',
        'id',
        'scammer_name',
        'business_name',
        'reviewed_at',
        'kind',
        'value',
      ],
      log_security_event: ['type', 'action', 'category', 'description', 'additional_data', 'risk_level'],
      market_import_closes: ['p_rows', 'p_apply'],
      market_import_flower_prices: ['p_rows', 'p_apply'],
      market_recompute: ['p_index'],
      market_verify: ['p_index'],
      // Comment authors with a public profile (decision 146): the ids, then the columns it returns.
      member_names: ['p_user_ids', 'user_id', 'username', 'display_name'],
      // The public member profile (issue 21 item 9, decision 146).
      member_profile: ['p_username'],
      moderate_comment: ['item_id', 'action'],
      moderate_held_votes: ['item_id', 'action'],
      // Arguments, then the columns of the rows it returns (the feed of product §news).
      news_feed: [
        'p_query',
        'p_category',
        'p_sort',
        'p_before_at',
        'p_before_id',
        'p_before_rank',
        'p_limit',
        'kind',
        'id',
        'title',
        'url',
        'summary',
        'image_url',
        'source_name',
        'category',
        'published_at',
        'is_sample',
        'also_reported_by',
        'title_highlight',
        'summary_highlight',
        'rank',
      ],
      progressive_rate_limit_check: ['action_type_param', 'base_max_attempts', 'time_window_minutes'],
      sample_retirement: ['area', 'retires_when', 'items'],
      // Pass or Gas's name search; it returns product_rankings rows (decision 256).
      search_products: ['q', 'sort', 'category', 'brand_slug', 'strain_type', 'max_rows'],
      // Arguments, then the columns of the rows it returns (the directory of product §brand-directory).
      search_brands: [
        'q',
        'state',
        'category',
        'verified_only',
        'sort',
        'page_size',
        'page_offset',
        'id',
        'name',
        'slug',
        'logo_url',
        'states',
        'city',
        'categories',
        'verification',
        'verified_at',
        'licence_number',
        'licence_state',
        'is_sample',
        'created_at',
        'products',
        'gas',
        'pass',
        'gas_share',
        'community_score',
        'match',
        'total',
      ],
      // The report a reply answers, to its sender (decision 201).
      scammer_report_for_reply: ['report_id'],
      // The Scammer Network's search (product §scammer-database): filters, sort and page.
      search_scammer_reports: [
        'query',
        'location',
        'amount_min',
        'amount_max',
        'incident_from',
        'incident_to',
        'sort',
        'result_limit',
        'result_offset',
        'brand',
      ],
      // The booking form's taken slots (issue 21 item 10): the range, then the columns it returns.
      shown_verification: ['item'],
      taken_booking_slots: ['from_date', 'to_date', 'booking_date', 'booking_time'],
      votes_ranking_constants: null,
      votes_trending_score: ['trend', 'at'],
    });
  });

  it('all pin search_path to empty (SECURITY DEFINER ones above all)', async () => {
    const { rows } = await db.query<{ signature: string; config: string[] | null }>(
      `select p.oid::regprocedure::text as signature, p.proconfig as config from pg_proc p
       where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)`,
    );
    expect(rows.length).toBeGreaterThan(25);
    // The exceptions: the ranking formulas, immutable arithmetic over pg_catalog that PostgreSQL
    // inlines only without a SET clause (decision 156); they must stay plain SQL, invoker's rights.
    const inlined = [
      'private.votes_trend_weight(timestamp with time zone)',
      'private.votes_wilson(integer,integer)',
    ];
    expect(
      rows.filter((row) => !row.config?.includes('search_path=""') && !inlined.includes(row.signature)),
    ).toEqual([]);
    const formulas = await db.query<{
      signature: string;
      kind: string;
      definer: boolean;
      volatility: string;
    }>(
      `select p.oid::regprocedure::text as signature, l.lanname as kind, p.prosecdef as definer,
              p.provolatile::text as volatility
       from pg_proc p join pg_language l on l.oid = p.prolang
       where p.oid::regprocedure::text = any($1) order by 1`,
      [inlined],
    );
    expect(formulas.rows).toEqual(
      inlined.map((signature) => ({ signature, kind: 'sql', definer: false, volatility: 'i' })),
    );
  });

  it('in private are executable by the API roles only where constraints, defaults or triggers need them', async () => {
    const { rows } = await db.query<{ name: string }>(
      `select distinct p.proname as name from pg_proc p
       where p.pronamespace = 'private'::regnamespace
         and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute'))
       order by 1`,
    );
    expect(rows.map((row) => row.name)).toEqual([
      'account_email',
      'are_http_urls',
      // The bookings' status flow, which a trigger checks for every writer (decision 101).
      'booking_status_allowed',
      // Whether a brands or brand_licences write is the primary licence's mirror, asked by their
      // (security invoker) guards (decision 151).
      'brand_licences_syncing',
      // The brands' column checks (decision 119) and the representatives' policy (decision 121).
      'brands_are_categories',
      'brands_are_links',
      'brands_are_states',
      'brands_is_https_url',
      'brands_is_representative',
      // The directory's counts of live brands, in all and per state and category, which search_brands
      // reads as the caller (decisions 250 and 253).
      'brands_live_facet_total',
      'brands_live_total',
      // The brand-logos bucket's write policies (decision 151).
      'brands_may_write_logo',
      // A typed name as the directory's words to look for, which search_brands asks as the caller
      // (decision 272).
      'brands_name_query',
      // The trust page's Top rank, which brand_page computes as the caller.
      'brands_top_rank',
      'caller_account_exists',
      'caller_is_privileged',
      // The "contains" pattern of every search, which search_brands builds as the caller.
      'contains_pattern',
      'count_request_row',
      'enforce_insert_rate',
      'enforce_write_quota',
      'has_html',
      'has_script_markup',
      'has_unsanitised_text',
      'is_email',
      'is_http_url',
      'is_iso_date',
      'is_phone',
      'is_privileged',
      'is_product_id',
      // A product name's one- and two-character runs, computed as whoever writes the row (its index,
      // decision 261).
      'name_grams',
      // A name's characters that are not letters, digits or spaces, likewise (decision 265).
      'name_marks',
      // Where a name's words meet, likewise (its indexes, decision 270).
      'name_meetings',
      // A search's text as conditions on those, which search_brands builds as the caller (decision 272).
      'name_meetings_condition',
      'name_runs_condition',
      // The title's fingerprint with its words joined, likewise (its index, decision 266).
      'news_fingerprint_joined',
      // Where the title's words meet, likewise (its index, decision 267).
      'news_fingerprint_pairs',
      // The news articles' generated story keys, computed as whoever writes the row (decision 114).
      'news_story_keys',
      'parse_ip',
      'raise_rate_limited',
      'request_ip',
      'requires_aal2',
      // The Scammer Network's evidence and reply policies (decisions 126, 141): a reader may read a
      // published report; a file may be uploaded into its slot, or read.
      'scammer_evidence_readable',
      'scammer_evidence_slot_open',
      // Masked spans (decision 197): the readers' view replaces them as the reader; the masks' policies
      // and (security invoker) guard ask who reviews a report and read a field's text.
      'scammer_report_field_text',
      'scammer_report_maskable',
      'scammer_report_masked',
      // The months and years of a report's publication in its search index, computed as whoever writes
      // the row (its index's expression, decision 269).
      'scammer_report_periods',
      'scammer_report_readable',
      'scammer_report_search_masked',
      // Its words with the year, likewise (its index's expression, decision 279).
      'scammer_report_year_words',
      'take_write_quota',
      'trial_length',
      'trimmed_length',
      'visitor_event_data',
      // The Trending score's weight, which the product_rankings view computes as the caller.
      'votes_trend_weight',
      'write_quota_cap',
    ]);
  });
});

describe('the migrations', () => {
  it('are Supabase CLI files, without transaction control', async () => {
    const app = (await readMigrations()).filter((file) => file.layer === 'app');
    expect(app.length).toBeGreaterThan(0);
    // Each issue adds its files in its own timestamp range (the schema's: 202611211…); definitions
    // (decision 089) are named after what they define.
    for (const file of app) {
      expect(file.name).toMatch(
        file.kind === 'migration' ? /^2026112\d{7}_[a-z0-9_]+\.sql$/ : /^definitions\/[a-z0-9_]+\.sql$/,
      );
      expect(file.sql).not.toMatch(/^\s*(begin|commit|rollback)\s*;/im);
    }
  });

  it('can be applied again without error or change (safe to paste into a hosted project twice)', async () => {
    const snapshot = async () =>
      (
        await db.query(
          `select (select count(*)::int from pg_policies where schemaname = 'public') as policies,
                  (select count(*)::int from pg_trigger t join pg_class c on c.oid = t.tgrelid
                     join pg_namespace n on n.oid = c.relnamespace
                   where not t.tgisinternal and n.nspname in ('public', 'private', 'auth')) as triggers,
                  (select count(*)::int from pg_constraint where connamespace in ('public'::regnamespace, 'private'::regnamespace)) as constraints,
                  (select count(*)::int from pg_indexes where schemaname in ('public', 'private')) as indexes,
                  (select count(*)::int from pg_proc where pronamespace in ('public'::regnamespace, 'private'::regnamespace)) as functions,
                  (select count(*)::int from private.app_settings) as settings`,
        )
      ).rows[0];
    const before = await snapshot();
    for (const file of (await readMigrations()).filter((migration) => migration.layer === 'app')) {
      await db.transaction((tx) => tx.exec(file.sql));
    }
    expect(await snapshot()).toEqual(before);
  });
});
