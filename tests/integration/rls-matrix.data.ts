/**
 * The row-level-security matrix of the product schema as plain data: every table × every caller ×
 * select/insert/update/delete, with the outcome the policies must give. Nothing here is tied to a
 * transport: rls-matrix.test.ts runs it as SQL through `db.withScope`, and a runner through
 * supabase-js can run the same rows (`.from(table).select().match(target)`, `.insert(values)`,
 * `.update(set).match(target)`, `.delete().match(target)`; arrange the fixtures with the service key).
 *
 * Outcomes:
 * - allowed:  the statement succeeds and reaches the target row (select returns it; update/delete
 *             report one row; insert succeeds).
 * - denied:   the database refuses with SQLSTATE 42501 (row-level security or a guard trigger);
 *             PostgREST answers 401 (anon) or 403.
 * - filtered: no error, but the target row is invisible: select returns nothing, update/delete change
 *             zero rows.
 *
 * Each case starts from the fixtures below and is undone afterwards.
 */

export type Actor = 'anon' | 'owner' | 'other' | 'subscriber' | 'admin' | 'service_role';
export type Operation = 'select' | 'insert' | 'update' | 'delete';
export type Outcome = 'allowed' | 'denied' | 'filtered';

export const ACTORS: readonly Actor[] = ['anon', 'owner', 'other', 'subscriber', 'admin', 'service_role'];
export const OPERATIONS: readonly Operation[] = ['select', 'insert', 'update', 'delete'];

/** A reference the runner resolves: a fixture user's id, a date or a timestamp relative to now. */
export type Ref = { $user: FixtureUser } | { $isoDate: number } | { $timestamp: number };
export type Value = string | number | boolean | null | string[] | { [key: string]: unknown } | Ref;
export type Values = Record<string, Value>;

export function isRef(value: unknown): value is Ref {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && ['$user', '$isoDate', '$timestamp'].includes(keys[0] as string);
}

// ---------------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------------

/** `deputy` is a second admin, whose role the admin revokes (the last admin role is never revoked). */
export type FixtureUser = 'owner' | 'other' | 'subscriber' | 'admin' | 'deputy';

/**
 * Accounts (auth.users). Every trial has ended, so access to the scammer network comes only from
 * a subscription (fixture rows below) or the admin role (the user_roles fixture row). The owner owns the rows acted on; "other" is any
 * signed-in user without access; the subscriber is a signed-in user with access.
 */
export const USERS: Record<FixtureUser, { id: string; email: string }> = {
  owner: { id: '0a000000-0000-4000-8000-000000000001', email: 'owner@rls.example' },
  other: { id: '0a000000-0000-4000-8000-000000000002', email: 'other@rls.example' },
  subscriber: { id: '0a000000-0000-4000-8000-000000000003', email: 'subscriber@rls.example' },
  admin: { id: '0a000000-0000-4000-8000-000000000004', email: 'admin@rls.example' },
  deputy: { id: '0a000000-0000-4000-8000-000000000005', email: 'deputy@rls.example' },
};

/** Fixed ids of the fixture rows that cases act on. */
export const IDS = {
  adminRole: '0b000000-0000-4000-8000-000000000001',
  publishedPost: '0b000000-0000-4000-8000-000000000002',
  draftPost: '0b000000-0000-4000-8000-000000000003',
  vote: '0b000000-0000-4000-8000-000000000004',
  comment: '0b000000-0000-4000-8000-000000000005',
  savedArticle: '0b000000-0000-4000-8000-000000000006',
  notification: '0b000000-0000-4000-8000-000000000007',
  submittedReport: '0b000000-0000-4000-8000-000000000008',
  publishedReport: '0b000000-0000-4000-8000-000000000009',
  booking: '0b000000-0000-4000-8000-00000000000a',
  securityEvent: '0b000000-0000-4000-8000-00000000000b',
  brand: '0b000000-0000-4000-8000-00000000000c',
  commentReport: '0b000000-0000-4000-8000-00000000000d',
  heldVotes: '0b000000-0000-4000-8000-00000000000e',
  newsSource: '0b000000-0000-4000-8000-00000000000f',
  newsArticle: '0b000000-0000-4000-8000-000000000010',
  deputyRole: '0b000000-0000-4000-8000-000000000011',
  brandClaim: '0b000000-0000-4000-8000-000000000b01',
  brandLicence: '0b000000-0000-4000-8000-000000000b02',
  watch: '0b000000-0000-4000-8000-000000000019',
  // Scammer Network replies and evidence (decisions 126, 141): a report the subscriber published, which
  // names someone the owner stands for.
  namedReport: '0b000000-0000-4000-8000-00000000001a',
  // A report taken down after publication (decision 202): back in review, with its withdrawal date.
  withdrawnReport: '0b000000-0000-4000-8000-0000000000c1',
  reply: '0b000000-0000-4000-8000-00000000001b',
  evidence: '0b000000-0000-4000-8000-00000000001c',
  approvedEvidence: '0b000000-0000-4000-8000-00000000001d',
  unapprovedEvidence: '0b000000-0000-4000-8000-00000000001e',
  // A reviewer's masked span of the owner's submitted report (decision 197).
  mask: '0b000000-0000-4000-8000-00000000001f',
} as const;

const owner: Ref = { $user: 'owner' };
const admin: Ref = { $user: 'admin' };

/**
 * Rows written with service-role rights before the cases run, in this order (profiles exist already:
 * the sign-up trigger creates them; they are updated to end the trials).
 */
export const FIXTURE_ROWS: { table: string; upsertOn: string[]; rows: Values[] }[] = [
  {
    table: 'profiles',
    upsertOn: ['user_id'],
    rows: (Object.keys(USERS) as FixtureUser[]).map((name) => ({
      user_id: { $user: name },
      username: `rls_${name}`,
      full_name: `RLS ${name}`,
      trial_ends_at: { $timestamp: -1 },
    })),
  },
  {
    table: 'user_roles',
    upsertOn: ['id'],
    rows: [
      { id: IDS.adminRole, user_id: admin, role: 'admin' },
      { id: IDS.deputyRole, user_id: { $user: 'deputy' }, role: 'admin' },
    ],
  },
  {
    table: 'scammer_subscriptions',
    upsertOn: ['user_id'],
    rows: [
      { user_id: owner, subscription_type: 'monthly', status: 'active', expires_at: { $timestamp: 20 } },
      {
        user_id: { $user: 'subscriber' },
        subscription_type: 'monthly',
        status: 'active',
        expires_at: { $timestamp: 20 },
      },
    ],
  },
  {
    table: 'privacy_settings',
    upsertOn: ['user_id'],
    rows: [{ user_id: owner, profile_visibility: 'public', show_email: false }],
  },
  {
    table: 'admin_posts',
    upsertOn: ['id'],
    rows: [
      {
        id: IDS.publishedPost,
        title: 'Welcome',
        content: 'First post',
        author_id: admin,
        status: 'published',
      },
      { id: IDS.draftPost, title: 'Draft', content: 'Not yet', author_id: admin, status: 'draft' },
    ],
  },
  { table: 'brands', upsertOn: ['id'], rows: [{ id: IDS.brand, name: 'RLS Brand', slug: 'rls-brand' }] },
  // A decided (rejected) claim of the owner's: the owner may claim again, and cannot withdraw it.
  {
    table: 'brand_claims',
    upsertOn: ['id'],
    rows: [
      { id: IDS.brandClaim, brand_id: IDS.brand, user_id: owner, role_title: 'Owner', status: 'rejected' },
    ],
  },
  {
    table: 'brand_licences',
    upsertOn: ['id'],
    rows: [{ id: IDS.brandLicence, brand_id: IDS.brand, number: 'RLS-1', state: 'CA' }],
  },
  {
    table: 'products',
    upsertOn: ['id'],
    rows: [
      { id: 'rls-product-1', name: 'RLS Kush', category: 'Flower', brand_id: IDS.brand },
      { id: 'rls-product-2', name: 'RLS Haze', category: 'Flower' },
    ],
  },
  {
    table: 'news_sources',
    upsertOn: ['id'],
    rows: [
      {
        id: IDS.newsSource,
        name: 'RLS Gazette',
        feed_url: 'https://rls.example/feed.xml',
        category: 'Policy',
      },
    ],
  },
  {
    table: 'news_articles',
    upsertOn: ['id'],
    rows: [
      {
        id: IDS.newsArticle,
        story_id: IDS.newsArticle,
        source_id: IDS.newsSource,
        guid: 'rls-1',
        title: 'Regulators publish rules',
        url: 'https://rls.example/rules',
        url_key: 'rls.example/rules',
        source_name: 'RLS Gazette',
        category: 'Policy',
        published_at: { $timestamp: -1 },
        fingerprint: 'regulators publish rules',
      },
    ],
  },
  {
    table: 'product_votes',
    upsertOn: ['id'],
    rows: [{ id: IDS.vote, user_id: owner, product_id: 'rls-product-1', vote_type: 'gas' }],
  },
  {
    table: 'product_comments',
    upsertOn: ['id'],
    rows: [{ id: IDS.comment, user_id: owner, product_id: 'rls-product-1', content: 'Smooth and tasty' }],
  },
  {
    table: 'product_comment_likes',
    upsertOn: ['comment_id', 'user_id'],
    rows: [{ comment_id: IDS.comment, user_id: admin }],
  },
  {
    table: 'product_comment_reports',
    upsertOn: ['id'],
    rows: [
      {
        id: IDS.commentReport,
        comment_id: IDS.comment,
        reporter_id: { $user: 'subscriber' },
        reason: 'spam',
      },
    ],
  },
  {
    table: 'moderation_items',
    upsertOn: ['id'],
    rows: [{ id: IDS.heldVotes, kind: 'held_votes', product_id: 'rls-product-2' }],
  },
  {
    table: 'saved_articles',
    upsertOn: ['id'],
    rows: [
      {
        id: IDS.savedArticle,
        user_id: owner,
        article_title: 'Market update',
        article_url: 'https://news.example/articles/1',
      },
    ],
  },
  {
    table: 'notifications',
    upsertOn: ['id'],
    rows: [{ id: IDS.notification, user_id: owner, title: 'Hello', message: 'Welcome aboard' }],
  },
  {
    table: 'scammer_reports',
    upsertOn: ['id'],
    rows: [
      { id: IDS.submittedReport, ...report(), reporter_user_id: owner, status: 'submitted' },
      { id: IDS.publishedReport, ...report(), reporter_user_id: owner, status: 'published' },
      { id: IDS.namedReport, ...report(), reporter_user_id: { $user: 'subscriber' }, status: 'published' },
      {
        id: IDS.withdrawnReport,
        ...report(),
        reporter_user_id: { $user: 'subscriber' },
        status: 'under_review',
        withdrawn_at: { $timestamp: 0 },
      },
    ],
  },
  {
    table: 'scammer_watches',
    upsertOn: ['id'],
    rows: [{ id: IDS.watch, user_id: owner, kind: 'name', value: 'Shady Seller' }],
  },
  {
    table: 'scammer_report_replies',
    upsertOn: ['id'],
    rows: [
      {
        id: IDS.reply,
        report_id: IDS.namedReport,
        user_id: owner,
        kind: 'reply',
        relation: 'person',
        body: 'I shipped the order; the courier lost it.',
        status: 'accepted',
      },
    ],
  },
  {
    table: 'scammer_report_masks',
    upsertOn: ['id'],
    rows: [
      {
        id: IDS.mask,
        report_id: IDS.submittedReport,
        field: 'incident_details',
        start_at: 0,
        end_at: 4,
        state: 'masked',
      },
    ],
  },
  {
    table: 'scammer_report_evidence',
    upsertOn: ['id'],
    rows: [
      {
        id: IDS.evidence,
        report_id: IDS.submittedReport,
        object_name: `${IDS.submittedReport}/0c000000-0000-4000-8000-000000000001.png`,
        file_name: 'chat.png',
        content_type: 'image/png',
        // Stored without metadata by the server (decision 199), so admins may approve it.
        cleaned_at: { $timestamp: 0 },
      },
      {
        id: IDS.approvedEvidence,
        report_id: IDS.publishedReport,
        object_name: `${IDS.publishedReport}/0c000000-0000-4000-8000-000000000002.png`,
        file_name: 'receipt.png',
        content_type: 'image/png',
        cleaned_at: { $timestamp: 0 },
        approved_at: { $timestamp: 0 },
      },
      {
        id: IDS.unapprovedEvidence,
        report_id: IDS.publishedReport,
        object_name: `${IDS.publishedReport}/0c000000-0000-4000-8000-000000000003.pdf`,
        file_name: 'id-card.pdf',
        content_type: 'application/pdf',
      },
    ],
  },
  {
    table: 'bookings',
    upsertOn: ['id'],
    rows: [{ id: IDS.booking, ...booking(), user_id: owner }],
  },
  {
    table: 'security_events',
    upsertOn: ['id'],
    rows: [
      { id: IDS.securityEvent, type: 'auth', category: 'authentication', action: 'signin', user_id: owner },
    ],
  },
  // Market index (decisions 127–130): the shipped indices, securities and flower prices are seeded by
  // the migration; these add a close, a revision of each kind and a security nothing refers to.
  {
    table: 'market_securities',
    upsertOn: ['ticker'],
    rows: [{ ticker: 'RLSA', company: 'RLS Holdings', venue: 'TEST' }],
  },
  {
    table: 'market_closes',
    upsertOn: ['ticker', 'date'],
    rows: [{ ticker: 'TLRY', date: '2025-01-02', close: 1.5, source: 'rls feed' }],
  },
  {
    table: 'market_close_revisions',
    upsertOn: ['ticker', 'date', 'revision'],
    rows: [
      {
        ticker: 'TLRY',
        date: '2025-01-02',
        revision: 1,
        close: 1.4,
        source: 'rls feed',
        as_of: { $timestamp: -1 },
      },
    ],
  },
  {
    table: 'index_point_revisions',
    upsertOn: ['index_slug', 'date', 'revision'],
    rows: [
      {
        index_slug: 'flower-price',
        date: '2018-10-01',
        revision: 1,
        value: 99,
        source: 'rls',
        as_of: { $timestamp: -1 },
        carried: false,
      },
    ],
  },
];

function report(): Values {
  return {
    scammer_name: 'Shady Seller',
    scammer_description: 'Takes payment, ships nothing.',
    truth_confirmed_at: { $timestamp: 0 },
    incident_details: 'Paid upfront for two ounces, the seller stopped answering.',
    amount_scammed: 250,
    date_of_incident: { $isoDate: -10 },
  };
}

function booking(): Values {
  return {
    full_name: 'Brand Owner',
    email: 'brand@example.com',
    product_name: 'Sunset Gummies',
    product_category: 'Edibles',
    booking_date: { $isoDate: 7 },
    booking_time: '10:30',
  };
}

// ---------------------------------------------------------------------------------------------------
// Expectations
// ---------------------------------------------------------------------------------------------------

const A = 'allowed';
const D = 'denied';
const F = 'filtered';
type Row6 = readonly [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];
/** Outcomes in ACTORS order: anon, owner, other, subscriber, admin, service_role. */
const by = (...outcomes: Row6): Record<Actor, Outcome> =>
  Object.fromEntries(ACTORS.map((actor, index) => [actor, outcomes[index]])) as Record<Actor, Outcome>;

export interface Request {
  /** Identifies the fixture row a select, update or delete acts on (equality on every column). */
  target?: Values;
  /** Columns of the inserted row. */
  values?: Values;
  /** Columns an update sets. */
  set?: Values;
  /** Rows removed with service-role rights first (an insert whose row already exists as a fixture). */
  prepare?: { table: string; match: Values }[];
}

export interface TableMatrix {
  table: string;
  /** The plain case of each operation. */
  requests: Record<Operation, Request>;
  expected: Record<Operation, Record<Actor, Outcome>>;
  /** Further cases on the same table: a different row or payload. */
  variants?: { name: string; operation: Operation; request: Request; expected: Record<Actor, Outcome> }[];
}

export const MATRIX: TableMatrix[] = [
  {
    table: 'user_roles',
    requests: {
      select: { target: { id: IDS.adminRole } },
      insert: { values: { user_id: owner, role: 'admin' } }, // the owner making themselves admin
      update: { target: { id: IDS.adminRole }, set: { role: 'admin' } },
      delete: { target: { id: IDS.deputyRole } }, // another admin's role: never the last one
    },
    expected: {
      select: by(F, F, F, F, A, A),
      insert: by(D, D, D, D, A, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
  },
  {
    table: 'profiles',
    requests: {
      select: { target: { user_id: owner } },
      insert: {
        prepare: [{ table: 'profiles', match: { user_id: owner } }],
        values: {
          user_id: owner,
          email: USERS.owner.email,
          full_name: 'Owner Again',
          username: 'owner_again',
        },
      },
      update: { target: { user_id: owner }, set: { bio: 'Grower since 2010.' } },
      delete: { target: { user_id: owner } },
    },
    expected: {
      select: by(F, A, F, F, A, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, A, F, F, A, A),
      delete: by(F, F, F, F, F, A),
    },
    variants: [
      {
        name: 'extending the trial',
        operation: 'update',
        request: { target: { user_id: owner }, set: { trial_ends_at: { $timestamp: 3650 } } },
        expected: by(F, D, F, F, A, A),
      },
      {
        name: "claiming another account's email",
        operation: 'update',
        request: { target: { user_id: owner }, set: { email: USERS.other.email } },
        expected: by(F, D, F, F, A, A),
      },
    ],
  },
  {
    table: 'privacy_settings',
    requests: {
      select: { target: { user_id: owner } },
      insert: {
        prepare: [{ table: 'privacy_settings', match: { user_id: owner } }],
        values: {
          user_id: owner,
          profile_visibility: 'private',
          show_email: false,
          show_activity: true,
          allow_analytics: false,
          allow_marketing: false,
          data_processing_consent: true,
          auto_delete_inactive: true,
          inactive_period_months: 12,
        },
      },
      update: { target: { user_id: owner }, set: { show_email: true } },
      delete: { target: { user_id: owner } },
    },
    expected: {
      select: by(F, A, F, F, F, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, A, F, F, F, A),
      delete: by(F, A, F, F, F, A),
    },
  },
  {
    table: 'scammer_subscriptions',
    requests: {
      select: { target: { user_id: owner } },
      insert: {
        prepare: [{ table: 'scammer_subscriptions', match: { user_id: owner } }],
        values: {
          user_id: owner,
          subscription_type: 'monthly',
          status: 'active',
          expires_at: { $timestamp: 20 },
        },
      },
      update: { target: { user_id: owner }, set: { status: 'cancelled' } },
      delete: { target: { user_id: owner } },
    },
    // Issue 22 (decision 131): only the server (service role, the payment webhook, the demo
    // activation) and admins (audited) write subscriptions; the owner reads theirs.
    expected: {
      select: by(F, A, F, F, A, A),
      insert: by(D, D, D, D, A, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
    variants: [
      {
        name: 'subscribing for ten years',
        operation: 'insert',
        request: {
          prepare: [{ table: 'scammer_subscriptions', match: { user_id: owner } }],
          values: {
            user_id: owner,
            subscription_type: 'monthly',
            status: 'active',
            expires_at: { $timestamp: 3650 },
          },
        },
        expected: by(D, D, D, D, A, A),
      },
      {
        name: 'extending the expiry by ten years',
        operation: 'update',
        request: { target: { user_id: owner }, set: { expires_at: { $timestamp: 3650 } } },
        expected: by(F, F, F, F, A, A),
      },
    ],
  },
  {
    table: 'admin_posts',
    requests: {
      select: { target: { id: IDS.publishedPost } },
      insert: {
        values: {
          title: 'Harvest festival',
          content: 'Join us on Saturday.',
          author_id: admin,
          featured: true,
          media_urls: ['https://cdn.example/admin-posts/a.jpg'],
          status: 'published',
        },
      },
      update: { target: { id: IDS.publishedPost }, set: { featured: true } },
      delete: { target: { id: IDS.publishedPost } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, D, D, D, A, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
    variants: [
      {
        name: 'a draft',
        operation: 'select',
        request: { target: { id: IDS.draftPost } },
        expected: by(F, F, F, F, A, A),
      },
    ],
  },
  {
    table: 'news_sources',
    requests: {
      select: { target: { id: IDS.newsSource } },
      insert: {
        values: { name: 'Another Gazette', feed_url: 'https://rls.example/other.xml', category: 'Business' },
      },
      update: { target: { id: IDS.newsSource }, set: { enabled: false } },
      delete: { target: { id: IDS.newsSource } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, D, D, D, A, A),
      update: by(D, F, F, F, A, A),
      delete: by(D, F, F, F, A, A),
    },
    variants: [
      {
        name: "writing the fetcher's status",
        operation: 'update',
        request: { target: { id: IDS.newsSource }, set: { last_status: 'ok', item_count: 999 } },
        expected: by(D, D, D, D, D, A),
      },
    ],
  },
  {
    table: 'news_articles',
    requests: {
      select: { target: { id: IDS.newsArticle } },
      insert: {
        values: {
          story_id: IDS.newsArticle,
          title: 'Made up',
          url: 'https://rls.example/made-up',
          url_key: 'rls.example/made-up',
          source_name: 'RLS Gazette',
          category: 'Policy',
          published_at: { $timestamp: 0 },
          fingerprint: 'made up',
        },
      },
      update: { target: { id: IDS.newsArticle }, set: { hidden: true } },
      delete: { target: { id: IDS.newsArticle } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, D, D, D, D, A),
      update: by(D, F, F, F, A, A),
      delete: by(D, D, D, D, D, A),
    },
    variants: [
      {
        name: 'rewriting a title',
        operation: 'update',
        request: { target: { id: IDS.newsArticle }, set: { title: 'Rewritten' } },
        expected: by(D, D, D, D, D, A),
      },
    ],
  },
  {
    table: 'product_votes',
    requests: {
      select: { target: { id: IDS.vote } },
      insert: { values: { user_id: owner, product_id: 'rls-product-2', vote_type: 'pass' } },
      update: { target: { id: IDS.vote }, set: { vote_type: 'pass' } },
      delete: { target: { id: IDS.vote } },
    },
    expected: {
      select: by(F, A, F, F, A, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, A, F, F, F, A),
      delete: by(F, A, F, F, F, A),
    },
  },
  {
    table: 'product_comments',
    requests: {
      select: { target: { id: IDS.comment } },
      insert: { values: { user_id: owner, product_id: 'rls-product-2', content: 'Harsh on the throat.' } },
      update: { target: { id: IDS.comment }, set: { content: 'Smooth, tasty, strong.' } },
      delete: { target: { id: IDS.comment } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, A, F, F, F, A),
      delete: by(F, A, F, F, A, A),
    },
  },
  {
    table: 'brands',
    requests: {
      select: { target: { id: IDS.brand } },
      insert: { values: { name: 'Another Brand', slug: 'another-brand' } },
      update: { target: { id: IDS.brand }, set: { name: 'Renamed Brand' } },
      delete: { target: { id: IDS.brand } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, D, D, D, A, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
  },
  {
    // Claims: members claim as themselves and read their own; admins read all and decide.
    table: 'brand_claims',
    requests: {
      select: { target: { id: IDS.brandClaim } },
      insert: { values: { brand_id: IDS.brand, user_id: owner, role_title: 'Head of marketing' } },
      update: { target: { id: IDS.brandClaim }, set: { decision_note: 'Checked the register.' } },
      delete: { target: { id: IDS.brandClaim } },
    },
    expected: {
      select: by(F, A, F, F, A, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
  },
  {
    // A brand's licences: everyone reads them; only admins add, edit (verify) and remove them.
    table: 'brand_licences',
    requests: {
      select: { target: { id: IDS.brandLicence } },
      insert: { values: { brand_id: IDS.brand, number: 'RLS-2', state: 'OR' } },
      update: { target: { id: IDS.brandLicence }, set: { type: 'Retail' } },
      delete: { target: { id: IDS.brandLicence } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, D, D, D, A, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
  },
  {
    // Kept by the database only (triggers and the live-tallies run): nobody writes a brand's tallies.
    table: 'brand_tallies',
    requests: {
      select: { target: { brand_id: IDS.brand } },
      insert: { values: { brand_id: IDS.brand, gas: 100 } },
      update: { target: { brand_id: IDS.brand }, set: { gas: 100 } },
      delete: { target: { brand_id: IDS.brand } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  },
  {
    table: 'products',
    requests: {
      select: { target: { id: 'rls-product-1' } },
      insert: { values: { name: 'Another Product', category: 'Edibles' } },
      update: { target: { id: 'rls-product-1' }, set: { name: 'Renamed Kush' } },
      delete: { target: { id: 'rls-product-1' } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, D, D, D, A, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
  },
  {
    // Kept by triggers only: nobody writes tallies, the per-day series or the rankings view.
    table: 'product_tallies',
    requests: {
      select: { target: { product_id: 'rls-product-1' } },
      insert: { values: { product_id: 'rls-product-1', gas: 100 } },
      update: { target: { product_id: 'rls-product-1' }, set: { gas: 100 } },
      delete: { target: { product_id: 'rls-product-1' } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  },
  {
    table: 'product_vote_days',
    requests: {
      select: { target: { product_id: 'rls-product-1' } },
      insert: { values: { product_id: 'rls-product-2', day: { $isoDate: 0 }, gas: 100 } },
      update: { target: { product_id: 'rls-product-1' }, set: { gas: 100 } },
      delete: { target: { product_id: 'rls-product-1' } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  },
  {
    table: 'product_rankings',
    requests: {
      select: { target: { id: 'rls-product-1' } },
      insert: { values: { id: 'rls-product-3', name: 'Sneaky' } },
      update: { target: { id: 'rls-product-1' }, set: { name: 'Sneaky' } },
      delete: { target: { id: 'rls-product-1' } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  },
  {
    table: 'product_comment_likes',
    requests: {
      select: { target: { comment_id: IDS.comment, user_id: admin } },
      insert: { values: { comment_id: IDS.comment, user_id: owner } },
      update: {
        target: { comment_id: IDS.comment, user_id: admin },
        set: { created_at: { $timestamp: -1 } },
      },
      delete: { target: { comment_id: IDS.comment, user_id: admin } },
    },
    expected: {
      select: by(F, F, F, F, A, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, F, F, F, F, A),
      delete: by(F, F, F, F, A, A),
    },
  },
  {
    table: 'product_comment_reports',
    requests: {
      select: { target: { id: IDS.commentReport } },
      insert: { values: { comment_id: IDS.comment, reporter_id: { $user: 'other' }, reason: 'rude' } },
      update: { target: { id: IDS.commentReport }, set: { reason: 'changed' } },
      delete: { target: { id: IDS.commentReport } },
    },
    expected: {
      select: by(F, F, F, A, A, A),
      insert: by(D, D, A, D, D, A),
      update: by(F, F, F, F, F, A),
      delete: by(F, F, F, F, F, A),
    },
  },
  {
    // Written only through moderate_comment / moderate_held_votes (admins).
    table: 'moderation_items',
    requests: {
      select: { target: { id: IDS.heldVotes } },
      insert: { values: { kind: 'held_votes', product_id: 'rls-product-1' } },
      update: { target: { id: IDS.heldVotes }, set: { votes: 3 } },
      delete: { target: { id: IDS.heldVotes } },
    },
    expected: {
      select: by(F, F, F, F, A, A),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  },
  {
    table: 'saved_articles',
    requests: {
      select: { target: { id: IDS.savedArticle } },
      insert: {
        values: {
          user_id: owner,
          article_title: 'Prices fall',
          article_url: 'https://news.example/articles/2',
        },
      },
      update: { target: { id: IDS.savedArticle }, set: { article_category: 'Business' } },
      delete: { target: { id: IDS.savedArticle } },
    },
    expected: {
      select: by(F, A, F, F, F, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, A, F, F, F, A),
      delete: by(F, A, F, F, F, A),
    },
  },
  {
    table: 'notifications',
    requests: {
      select: { target: { id: IDS.notification } },
      insert: { values: { user_id: owner, title: 'Report published', message: 'Your report is live.' } },
      update: { target: { id: IDS.notification }, set: { is_read: true } },
      delete: { target: { id: IDS.notification } },
    },
    expected: {
      select: by(F, A, F, F, A, A),
      insert: by(D, D, D, D, A, A),
      update: by(F, A, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
    variants: [
      {
        name: 'rewriting the title',
        operation: 'update',
        request: { target: { id: IDS.notification }, set: { title: 'You won a prize' } },
        expected: by(F, D, F, F, A, A),
      },
    ],
  },
  {
    table: 'scammer_reports',
    requests: {
      select: { target: { id: IDS.submittedReport } },
      insert: { values: { ...report(), reporter_user_id: owner } },
      update: { target: { id: IDS.submittedReport }, set: { status: 'under_review' } },
      delete: { target: { id: IDS.submittedReport } },
    },
    expected: {
      select: by(F, A, F, F, A, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
    variants: [
      {
        // Readers read published reports through published_scammer_reports, never the table
        // (decision 123): the table is for the reporter and the admins.
        name: 'a published report',
        operation: 'select',
        request: { target: { id: IDS.publishedReport } },
        expected: by(F, A, F, F, A, A),
      },
      {
        name: 'submitting it already published',
        operation: 'insert',
        request: { values: { ...report(), reporter_user_id: owner, status: 'published' } },
        expected: by(D, D, D, D, D, A),
      },
    ],
  },
  {
    table: 'bookings',
    requests: {
      select: { target: { id: IDS.booking } },
      insert: { values: { ...booking(), user_id: owner } },
      update: { target: { id: IDS.booking }, set: { special_requests: 'Please call before noon.' } },
      delete: { target: { id: IDS.booking } },
    },
    expected: {
      select: by(F, A, F, F, A, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
    variants: [
      {
        name: 'booking anonymously',
        operation: 'insert',
        request: { values: { ...booking(), user_id: null } },
        expected: by(A, A, A, A, A, A),
      },
    ],
  },
  {
    table: 'security_events',
    requests: {
      select: { target: { id: IDS.securityEvent } },
      insert: {
        values: { type: 'auth', category: 'authentication', action: 'signin_failed', user_id: owner },
      },
      update: { target: { id: IDS.securityEvent }, set: { description: 'nothing happened' } },
      delete: { target: { id: IDS.securityEvent } },
    },
    expected: {
      select: by(F, F, F, F, A, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, F, F, F, F, A),
      delete: by(F, F, F, F, F, A),
    },
    variants: [
      {
        name: 'logging anonymously',
        operation: 'insert',
        request: {
          values: { type: 'auth', category: 'authentication', action: 'signin_failed', user_id: null },
        },
        expected: by(A, A, A, A, A, A),
      },
    ],
  },
  // Watches (decision 125): private to their owner; members with access add their own.
  {
    table: 'scammer_watches',
    requests: {
      select: { target: { id: IDS.watch } },
      insert: { values: { kind: 'name', value: 'Another Seller', user_id: owner } },
      update: { target: { id: IDS.watch }, set: { value: 'Renamed Seller' } },
      delete: { target: { id: IDS.watch } },
    },
    expected: {
      select: by(F, A, F, F, F, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, F, F, F, F, A),
      delete: by(F, A, F, F, F, A),
    },
  },
  // Replies from the people named (decision 126): the sender's and the admins'; members send their own.
  {
    table: 'scammer_report_replies',
    requests: {
      select: { target: { id: IDS.reply } },
      insert: {
        values: {
          report_id: IDS.namedReport,
          user_id: owner,
          kind: 'correction',
          relation: 'business',
          body: 'The amount in this report is wrong: it was $40.',
        },
      },
      update: {
        target: { id: IDS.reply },
        set: { status: 'declined', decision_note: 'Names a third party.' },
      },
      delete: { target: { id: IDS.reply } },
    },
    expected: {
      select: by(F, A, F, F, A, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
  },
  // Accepted replies under published reports: members with access, read-only.
  {
    table: 'published_scammer_report_replies',
    requests: {
      select: { target: { id: IDS.reply } },
      insert: { values: { body: 'Forged reply from the admins.' } },
      update: { target: { id: IDS.reply }, set: { body: 'Forged reply from the admins.' } },
      delete: { target: { id: IDS.reply } },
    },
    expected: {
      select: by(D, A, F, A, A, F),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  },
  // Masked spans (decision 197): admins other than the reporter only — the reporter (owner) neither.
  {
    table: 'scammer_report_masks',
    requests: {
      select: { target: { id: IDS.mask } },
      insert: {
        values: { report_id: IDS.submittedReport, field: 'incident_details', start_at: 10, end_at: 15 },
      },
      update: { target: { id: IDS.mask }, set: { state: 'unmasked' } },
      delete: { target: { id: IDS.mask } },
    },
    expected: {
      select: by(F, F, F, F, A, A),
      insert: by(D, D, D, D, A, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, F, F, F, A, A),
    },
  },
  // Evidence files (decision 141): the reporter's (attached while submitted) and the admins'.
  {
    table: 'scammer_report_evidence',
    requests: {
      select: { target: { id: IDS.evidence } },
      insert: {
        values: {
          report_id: IDS.submittedReport,
          object_name: `${IDS.submittedReport}/0c000000-0000-4000-8000-000000000004.jpg`,
          file_name: 'photo.jpg',
          content_type: 'image/jpeg',
        },
      },
      update: { target: { id: IDS.evidence }, set: { approved_at: { $timestamp: 0 } } },
      delete: { target: { id: IDS.evidence } },
    },
    expected: {
      select: by(F, A, F, F, A, A),
      insert: by(D, A, D, D, D, A),
      update: by(F, F, F, F, A, A),
      delete: by(F, A, F, F, A, A),
    },
    variants: [
      {
        // Readers never read the table, not even an approved file of a published report.
        name: 'an approved file of a published report',
        operation: 'select',
        request: { target: { id: IDS.approvedEvidence } },
        expected: by(F, A, F, F, A, A),
      },
    ],
  },
  // Approved files of published reports, for members with access; never an unapproved one.
  {
    table: 'published_scammer_report_evidence',
    requests: {
      select: { target: { id: IDS.approvedEvidence } },
      insert: { values: { object_name: 'forged.png' } },
      update: { target: { id: IDS.approvedEvidence }, set: { content_type: 'image/gif' } },
      delete: { target: { id: IDS.approvedEvidence } },
    },
    expected: {
      select: by(D, A, F, A, A, F),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
    variants: [
      {
        name: 'a file not approved',
        operation: 'select',
        request: { target: { id: IDS.unapprovedEvidence } },
        expected: by(D, F, F, F, F, F),
      },
    ],
  },
  // Published scammer reports (decision 123): rows only for members with access (the owner's and the
  // subscriber's subscriptions, the admin); read-only for everyone.
  {
    table: 'published_scammer_reports',
    requests: {
      select: { target: { id: IDS.publishedReport } },
      insert: { values: { scammer_name: 'Forged Report' } },
      update: { target: { id: IDS.publishedReport }, set: { public_summary: 'forged' } },
      delete: { target: { id: IDS.publishedReport } },
    },
    expected: {
      select: by(D, A, F, A, A, F),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  },
  // A withdrawn report's notice (decision 202): its date, for members with access; read-only.
  {
    table: 'withdrawn_scammer_reports',
    requests: {
      select: { target: { id: IDS.withdrawnReport } },
      insert: { values: { id: IDS.publishedReport } },
      update: { target: { id: IDS.withdrawnReport }, set: { withdrawn_at: null } },
      delete: { target: { id: IDS.withdrawnReport } },
    },
    expected: {
      select: by(D, A, F, A, A, F),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  },
  // Corrections' kinds (decision 201): the fixtures change no published report, so no row for anyone;
  // what rows readers get is in reports-reply-evidence.test.ts. Read-only.
  {
    table: 'scammer_report_updates',
    requests: {
      select: { target: { report_id: IDS.publishedReport } },
      insert: { values: { report_id: IDS.publishedReport, kind: 'summary' } },
      update: { target: { report_id: IDS.publishedReport }, set: { kind: 'evidence' } },
      delete: { target: { report_id: IDS.publishedReport } },
    },
    expected: {
      select: by(D, F, F, F, F, F),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  },
  // Admin views (decisions 100, 101): rows only for admins; nobody writes through them.
  {
    table: 'admin_audit_log',
    requests: {
      select: { target: { target_id: IDS.adminRole } },
      insert: { values: { action: 'forged', target_table: 'public.user_roles' } },
      update: { target: { target_id: IDS.adminRole }, set: { action: 'forged' } },
      delete: { target: { target_id: IDS.adminRole } },
    },
    expected: {
      select: by(D, F, F, F, A, F),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  },
  {
    table: 'admin_bookings',
    requests: {
      select: { target: { id: IDS.booking } },
      insert: { values: { ...booking(), user_id: null } },
      update: { target: { id: IDS.booking }, set: { status: 'confirmed' } },
      delete: { target: { id: IDS.booking } },
    },
    expected: {
      select: by(D, F, F, F, A, F),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  },
  // The admins' member list and its search (decision 255): rows only for admins, written by no one.
  ...(['admin_members', 'admin_member_search'] as const).map((table) => ({
    table,
    requests: {
      select: { target: { id: owner } },
      insert: { values: { id: owner, full_name: 'Forged' } },
      update: { target: { id: owner }, set: { full_name: 'Forged' } },
      delete: { target: { id: owner } },
    },
    expected: {
      select: by(D, F, F, F, A, F),
      insert: by(D, D, D, D, D, D),
      update: by(D, D, D, D, D, D),
      delete: by(D, D, D, D, D, D),
    },
  })),
  // Market index (decisions 127–130): everyone reads; the server and the admin RPCs write; admins
  // change constituents directly.
  ...(
    [
      {
        table: 'market_indices',
        target: { slug: 'flower-price' },
        values: { slug: 'rls-index', kind: 'flower', name: 'RLS', description: 'x', methodology: 'x' },
        set: { name: 'Renamed' },
      },
      {
        table: 'index_points',
        target: { index_slug: 'flower-price', date: '2018-10-01' },
        values: { index_slug: 'flower-price', date: '2031-01-01', value: 1, source: 'x' },
        set: { value: 1 },
      },
      {
        table: 'index_point_revisions',
        target: { index_slug: 'flower-price', date: '2018-10-01', revision: 1 },
        values: {
          index_slug: 'flower-price',
          date: '2031-01-01',
          revision: 1,
          value: 1,
          source: 'x',
          as_of: { $timestamp: 0 },
          carried: false,
        },
        set: { value: 1 },
      },
      {
        table: 'flower_price_observations',
        target: { state: 'CO', period: '2018-10-01' },
        values: {
          state: 'ZZ',
          series: 'x',
          period: '2030-01-01',
          unit: 'USD/g',
          value: 1,
          statistic: 'x',
          source: 'x',
        },
        set: { value: 1 },
      },
      {
        table: 'market_securities',
        target: { ticker: 'RLSA' },
        values: { ticker: 'RLSB', company: 'x', venue: 'x' },
        set: { company: 'Renamed' },
      },
      {
        table: 'market_closes',
        target: { ticker: 'TLRY', date: '2025-01-02' },
        values: { ticker: 'TLRY', date: '2030-01-02', close: 1, source: 'x' },
        set: { close: 2 },
      },
      {
        table: 'market_close_revisions',
        target: { ticker: 'TLRY', date: '2025-01-02', revision: 1 },
        values: {
          ticker: 'TLRY',
          date: '2030-01-02',
          revision: 1,
          close: 1,
          source: 'x',
          as_of: { $timestamp: 0 },
        },
        set: { close: 2 },
      },
    ] as const
  ).map(
    (table): TableMatrix => ({
      table: table.table,
      requests: {
        select: { target: table.target },
        insert: { values: table.values },
        update: { target: table.target, set: table.set },
        delete: { target: table.target },
      },
      expected: {
        select: by(A, A, A, A, A, A),
        insert: by(D, D, D, D, D, A),
        update: by(D, D, D, D, D, A),
        delete: by(D, D, D, D, D, A),
      },
    }),
  ),
  {
    table: 'market_constituents',
    requests: {
      select: { target: { index_slug: 'cannabis-equity', ticker: 'TLRY' } },
      insert: { values: { index_slug: 'cannabis-equity', ticker: 'RLSA', effective_from: '2030-01-01' } },
      update: {
        target: { index_slug: 'cannabis-equity', ticker: 'TLRY' },
        set: { effective_from: '2001-01-01' },
      },
      delete: { target: { index_slug: 'cannabis-equity', ticker: 'TLRY' } },
    },
    expected: {
      select: by(A, A, A, A, A, A),
      insert: by(D, D, D, D, A, A),
      update: by(D, F, F, F, A, A),
      delete: by(D, F, F, F, A, A),
    },
  },
];

export interface RlsCase {
  table: string;
  actor: Actor;
  operation: Operation;
  /** Empty for the plain case of the operation. */
  variant: string;
  request: Request;
  expected: Outcome;
}

/** Every case of the matrix, one per table × actor × operation (and variant). */
export function rlsCases(): RlsCase[] {
  const cases: RlsCase[] = [];
  for (const entry of MATRIX) {
    for (const operation of OPERATIONS) {
      for (const actor of ACTORS) {
        cases.push({
          table: entry.table,
          actor,
          operation,
          variant: '',
          request: entry.requests[operation],
          expected: entry.expected[operation][actor],
        });
      }
    }
    for (const variant of entry.variants ?? []) {
      for (const actor of ACTORS) {
        cases.push({
          table: entry.table,
          actor,
          operation: variant.operation,
          variant: variant.name,
          request: variant.request,
          expected: variant.expected[actor],
        });
      }
    }
  }
  return cases;
}
