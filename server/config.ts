import { resolve } from 'node:path';
import { OperatorError } from './operator-error.ts';

/**
 * Every setting the server reads, parsed and validated once at start-up. Names follow Supabase's
 * self-hosting environment where one exists. A bad value is reported by name with what was expected,
 * all problems at once, so an operator fixes them in one go.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Unset means the embedded database (PGlite) in `dataDir/db`. */
  databaseUrl: string | undefined;
  dbPoolMax: number;
  /** Connections one client (an address, a signed-in user) may hold at once (PostgreSQL). */
  dbPoolPerClient: number;
  /** Longest a request waits for a database connection before a 503 with Retry-After. */
  dbAcquireTimeoutMs: number;
  siteUrl: string;
  /** Where the browser reaches the API; unset means the page's own origin. */
  apiExternalUrl: string | undefined;
  additionalRedirectUrls: string[];
  jwtSecret: string | undefined;
  anonKey: string | undefined;
  serviceRoleKey: string | undefined;
  /** The new-format API keys (`sb_publishable_…`, `sb_secret_…`); unset means derived from JWT_SECRET. */
  publishableKey: string | undefined;
  secretKey: string | undefined;
  /** How user access tokens are signed: HS256 with JWT_SECRET, or an asymmetric key (decision 178). */
  jwtSigningAlgorithm: 'HS256' | 'ES256' | 'RS256';
  /** JWT_SIGNING_KEYS: private JWKs as JSON (the first signs, the rest verify), instead of generated ones. */
  jwtSigningKeys: string | undefined;
  jwtExpiry: number;
  enableEmailAutoconfirm: boolean;
  disableSignup: boolean;
  /** Anonymous sign-ins (POST /signup without credentials; GoTrue's EXTERNAL_ANONYMOUS_USERS_ENABLED). */
  enableAnonymousUsers: boolean;
  smtp: {
    host: string | undefined;
    port: number;
    user: string | undefined;
    pass: string | undefined;
    adminEmail: string;
    senderName: string;
  };
  storageBackend: 'file' | 's3';
  storage: StorageConfig;
  supportEmail: string;
  /** METRICS_TOKEN: the bearer token `/metrics` requires; unset, `/metrics` answers 404 (decision 177). */
  metricsToken: string | undefined;
  siteName: string;
  /**
   * SEARCH_INDEXING: whether robots.txt lets search engines in and pages carry no blanket `noindex`
   * (decision 186). Defaults to true only when SITE_URL is not a local address (localhost, loopback,
   * a private network, `.local`/`.internal`/`.test` names), so a staging or development server is
   * never indexed by accident.
   */
  searchIndexing: boolean;
  /**
   * SITEMAP_URLS_PER_FILE: how many URLs each sitemap file holds, at most the protocol's 50,000 (the
   * default). Smaller files suit a crawler that reads slowly, and let a test page through files.
   */
  sitemapUrlsPerFile: number;
  /** The authentication service's settings (GoTrue's GOTRUE_* names without the prefix). */
  auth: AuthConfig;
  /** The one social sign-in provider; undefined when none is configured. */
  oauth: OAuthProviderConfig | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Fastify's trustProxy: false, true, or the proxies' addresses/CIDRs (comma-separated). */
  trustProxy: boolean | string;
  /**
   * Longest one statement of an API request may run, by the role it runs as, in milliseconds
   * (Supabase's defaults: anon 3 s, authenticated 8 s; service_role from STATEMENT_TIMEOUT_MS).
   */
  statementTimeoutsMs: { anon: number; authenticated: number; service_role: number };
  /** Most rows one data API read returns (PostgREST's db-max-rows); also the estimated-count threshold. */
  restMaxRows: number;
  /** PostgREST's db-aggregates-enabled: `count()`, `col.sum()` … in select (decision 136). */
  restAggregates: boolean;
  /** PostgREST's db-plan-enabled: `Accept: application/vnd.pgrst.plan` answers EXPLAIN (decision 153). */
  restPlans: boolean;
  /**
   * PostgREST's db-schemas (PGRST_DB_SCHEMAS): the schemas the data API exposes, the first the default
   * (decision 155). Never empty; the platform's own schemas are refused.
   */
  restSchemas: readonly string[];
  /**
   * Whether a fresh install shows labelled sample content until real content arrives (DEMO_CONTENT,
   * default true). false removes any samples at start-up and never loads them (decision 105).
   */
  demoContent: boolean;
  /**
   * Milliseconds without activity after which the web app signs a member out (product §session: 2 hours). A
   * public setting: the browser enforces it, and tests shorten it.
   */
  autoSignOutMs: number;
  realtime: RealtimeConfig;
  /** The server functions (/functions/v1). */
  functions: FunctionsConfig;
  news: NewsConfig;
  /** Card payments for the Scammer Network (issue 22, decisions 131–133). */
  payments: PaymentsConfig;
  marketQuotes: MarketQuotesConfig;
}

/**
 * Stripe, when STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID are all set; otherwise the
 * labelled demo mode (the spec's direct activation, no payment taken).
 */
export interface PaymentsConfig {
  stripe:
    | {
        secretKey: string;
        webhookSecret: string;
        priceId: string;
        /** STRIPE_API_BASE: where the stripe package sends requests (tests point it at a local fake). */
        apiBase: URL | undefined;
      }
    | undefined;
  /** SUBSCRIPTION_GRACE_DAYS: access after a failed renewal payment while Stripe retries. */
  graceDays: number;
  /** STRIPE_WEBHOOK_TOLERANCE_SECONDS: how old a signed webhook may be (replays beyond are refused). */
  webhookToleranceSeconds: number;
}

/** The optional quote provider for daily closes (product §market-index, decision 143). */
export interface MarketQuotesConfig {
  /** MARKET_QUOTES_URL: base URL of a provider speaking the Tiingo end-of-day protocol; unset = off. */
  url: string | undefined;
  /** MARKET_QUOTES_KEY: the provider's API key, sent as `Authorization: Token <key>` (server only). */
  key: string | undefined;
  /** MARKET_QUOTES_REFRESH_MINUTES: how often closes are fetched (one process per interval). */
  refreshMinutes: number;
  /** MARKET_QUOTES_TIMEOUT_MS: one provider request. */
  timeoutMs: number;
  /** MARKET_QUOTES_LOOKBACK_DAYS: days before the last stored close fetched again (late corrections). */
  lookbackDays: number;
  /** MARKET_QUOTES_HISTORY_DAYS: days fetched for a security with no real closes yet. */
  historyDays: number;
}

/** Reading news feeds (product §news, decision 112). */
export interface NewsConfig {
  /** NEWS_REFRESH_MINUTES: how often enabled sources are fetched; 0 turns the schedule off. */
  refreshMinutes: number;
  /** NEWS_ALLOW_PRIVATE_HOSTS: feeds on private or loopback addresses may be fetched (off by default). */
  allowPrivateHosts: boolean;
  /** NEWS_FETCH_TIMEOUT_MS: one fetch, redirects included. */
  fetchTimeoutMs: number;
  /** NEWS_MAX_FEED_KB: the largest feed read, after decompression. */
  maxFeedBytes: number;
}

export interface FunctionsConfig {
  /** GDPR_EXPORT_LIMIT_PER_HOUR: data exports one user may download per hour (they are expensive). */
  gdprExportsPerHour: number;
  /** Pass or Gas (decision 116): the database reads these from private.votes_settings, written at start. */
  votes: {
    /** VOTE_MIN_ACCOUNT_AGE_HOURS: a vote counts once its account is this old (pending until then). */
    minAccountAgeHours: number;
    /** VOTE_RING_DETECTION: hold votes of suspected rings for review. */
    ringDetection: boolean;
  };
}

/**
 * Limits and tuning of /realtime/v1. Defaults follow Supabase's free plan where it has a limit of the
 * same kind (200 concurrent connections, 100 channels per connection, 100 messages per second, 256 KB
 * broadcast payloads, 1024 KB postgres_changes records).
 */
export interface RealtimeConfig {
  /** Websocket connections one server process accepts. */
  maxConnections: number;
  /** Channels one connection may have joined at a time. */
  maxChannelsPerClient: number;
  /** Messages one connection may send per second (every frame counts, heartbeats included). */
  maxEventsPerSecond: number;
  /** Largest broadcast/presence payload and, with some room for the envelope, the largest frame. */
  maxPayloadBytes: number;
  /** postgres_changes rows larger than this are sent with only their small values (Error 413). */
  maxRecordBytes: number;
  /** A connection that sends nothing (not even a heartbeat) for this long is closed. */
  idleTimeoutMs: number;
  /** Changes read per database round trip. */
  changeBatchSize: number;
  /** On PostgreSQL: connections that apply one batch together, each for a share of the subscribers. */
  applyParallelism: number;
  /** Safety net behind LISTEN/NOTIFY: how often each process looks for changes it was not told of. */
  pollIntervalMs: number;
  /** How often each process reports to the others that it is alive (and cleans up after them). */
  heartbeatIntervalMs: number;
  /** How long private broadcasts stay in realtime.messages for broadcast replay (decision 234). */
  replayRetentionHours: number;
}

export interface AuthConfig {
  passwordMinLength: number;
  /** Character sets a password must each draw from (GoTrue's PASSWORD_REQUIRED_CHARACTERS). */
  passwordRequiredCharacters: string[];
  /** Seconds an emailed link or code stays valid. */
  mailerOtpExp: number;
  mailerOtpLength: number;
  /** Email change needs confirming from both the old and the new address. */
  secureEmailChange: boolean;
  /** A password change needs a reauthentication nonce (GET /reauthenticate). */
  updatePasswordRequireReauthentication: boolean;
  /** Seconds a rotated refresh token may still be presented (concurrent tabs, lost responses). */
  refreshTokenReuseInterval: number;
  /** Signed-in users may link and unlink social identities themselves. */
  manualLinking: boolean;
  /**
   * POST /otp for an address without an account when no account may be made (`create_user: false`, or
   * sign-ups disabled): false answers an empty 200 like for any address, so the endpoint reveals no
   * accounts (decision 016); true answers GoTrue's 422 `otp_disabled` (decision 135).
   */
  otpRevealsUnknownEmail: boolean;
  mfaMaxEnrolledFactors: number;
  /**
   * WebAuthn as an MFA factor (decision 149): enrolment and verification switches (GoTrue's
   * MFA_WEBAUTHN_ENROLL_ENABLED / MFA_WEBAUTHN_VERIFY_ENABLED, off by default) and the relying party:
   * its id (a registrable domain; default SITE_URL's host name), the origins its pages are served
   * from (default SITE_URL) and the name authenticators show (default SITE_NAME).
   */
  webauthn: {
    enrollEnabled: boolean;
    verifyEnabled: boolean;
    rpId: string | undefined;
    rpOrigins: string[];
    rpDisplayName: string | undefined;
    /** Seconds a passkey challenge (options → verify) stays valid (GoTrue's WEBAUTHN_CHALLENGE_EXPIRY_DURATION). */
    challengeExpiry: number;
  };
  /** Passkeys: sign-in with a WebAuthn credential (GoTrue's PASSKEY_ENABLED, off by default; decision 149). */
  passkey: { enabled: boolean; maxPerUser: number };
  /** Seconds an MFA challenge can be answered. */
  mfaChallengeExpiry: number;
  /** Seconds a PKCE flow (auth code) stays exchangeable. */
  flowStateExpiry: number;
  /** Minimum seconds between two mails of one kind to one address. */
  smtpMaxFrequency: number;
  rateLimits: {
    /** Mails the whole instance may send per hour. */
    emailSent: number;
    /** Per client IP and 5 minutes: sign-ups and sign-ins (password, id_token, pkce grants). */
    signIn: number;
    /** Per client IP and 5 minutes: refresh-token grants. */
    tokenRefresh: number;
    /** Per client IP and 5 minutes: verifications (email links, codes, MFA). */
    verify: number;
    /** Per client IP and 5 minutes: requests that send mail (otp, recover, resend, reauthenticate). */
    otp: number;
    /** Mails one client address may cause per hour (well below `emailSent`, so one client cannot use it up). */
    emailPerClient: number;
    /** Mails one recipient address may receive per hour, of every kind together. */
    emailPerRecipient: number;
    /** Per client IP and hour: anonymous sign-ins (GoTrue's RATE_LIMIT_ANONYMOUS_USERS). */
    anonymousUsers: number;
    /** Per client IP and 5 minutes: passkey sign-in options (GoTrue's RATE_LIMIT_PASSKEY). */
    passkey: number;
  };
  /**
   * The per-account sign-in throttle (decision 095): failed password sign-ins allowed before each further
   * one waits, the first wait, and the longest (the wait doubles per failure). A device that signed in to
   * the account before is throttled on its own, so a locked account still opens from its owner's browser.
   */
  signInThrottle: {
    freeFailures: number;
    delaySeconds: number;
    maxDelaySeconds: number;
  };
}

export interface OAuthProviderConfig {
  /** The name clients pass as `provider` (e.g. google); reported under `external` by /settings. */
  provider: string;
  clientId: string;
  clientSecret: string | undefined;
  /** OIDC issuer (discovery); optional when the endpoints are given explicitly. */
  issuer: string | undefined;
  authorizationEndpoint: string | undefined;
  tokenEndpoint: string | undefined;
  userinfoEndpoint: string | undefined;
  jwksUri: string | undefined;
  scopes: string;
}

/** The file service (/storage/v1); names as in Supabase Storage's self-hosting environment. */
export interface StorageConfig {
  /** FILE_SIZE_LIMIT: the largest object any upload may write, in bytes; buckets may only lower it. */
  fileSizeLimit: number;
  /** UPLOAD_SIGNED_URL_EXPIRATION_TIME: lifetime of signed upload URLs, in seconds. */
  uploadSignedUrlExpirySeconds: number;
  /** Used when storageBackend is 's3'. */
  s3: {
    bucket: string | undefined;
    /** Unset means AWS itself. */
    endpoint: string | undefined;
    region: string;
    forcePathStyle: boolean;
    /** Unset means the AWS SDK's default credential chain (environment, profile, instance role). */
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
  };
}

export class ConfigError extends OperatorError {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
  }
}

type Env = Record<string, string | undefined>;

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string;
  string(name: string): string | undefined;
  string(name: string, fallback?: string): string | undefined {
    return this.raw(name) ?? fallback;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      this.problems.push(
        `${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`,
      );
      return fallback;
    }
    return Number(value);
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['true', '1', 'yes', 'on'].includes(value)) return true;
    if (['false', '0', 'no', 'off'].includes(value)) return false;
    this.problems.push(`${name} must be true or false (got ${JSON.stringify(this.raw(name))})`);
    return fallback;
  }

  url(name: string, protocols: string[]): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    try {
      const url = new URL(value);
      if (!protocols.includes(url.protocol)) throw new Error('protocol');
      return value;
    } catch {
      this.problems.push(
        `${name} must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL (got ${JSON.stringify(redact(value))})`,
      );
      return undefined;
    }
  }

  list(name: string, separator = ','): string[] {
    return (this.raw(name) ?? '')
      .split(separator)
      .map((item) => item.trim())
      .filter(Boolean);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
      return fallback;
    }
    return value as T;
  }

  trustProxy(name: string): boolean | string {
    const value = this.raw(name);
    if (value === undefined) return false;
    if (/^(true|false|yes|no|on|off)$/i.test(value)) return this.bool(name, false);
    if (!/^[0-9a-f:./,\s]+$/i.test(value)) {
      this.problems.push(
        `${name} must be true, false or a comma-separated list of proxy addresses (got ${JSON.stringify(value)})`,
      );
      return false;
    }
    return value;
  }

  /**
   * A comma-separated list of schema names, as PostgREST's db-schemas (default `public`): each as it
   * is spelled (names are case-sensitive), printable ASCII, at most 63 bytes, listed once, and none of
   * the schemas the platform keeps to itself (decision 155).
   */
  schemas(name: string): readonly string[] {
    const value = this.raw(name);
    if (value === undefined) return ['public'];
    const names = value.split(',').map((item) => item.trim());
    const problem = names
      .map((schema) => {
        if (schema === '') return 'an empty name';
        if (Buffer.byteLength(schema) > 63) return `"${schema.slice(0, 20)}…" (longer than 63 bytes)`;
        // header values reach the server as bytes read as Latin-1: only ASCII names can be asked for
        if (!/^[\x20-\x7e]+$/.test(schema)) return `${JSON.stringify(schema)} (not printable ASCII)`;
        if (schema.startsWith('pg_') || RESERVED_SCHEMAS.has(schema))
          return `"${schema}" (kept by the platform, never exposed)`;
        return undefined;
      })
      .find((p) => p !== undefined);
    const duplicate = names.find((schema, i) => names.indexOf(schema) !== i);
    if (problem !== undefined || duplicate !== undefined) {
      this.problems.push(
        `${name} must be a comma-separated list of schemas to expose, each once; got ${problem ?? `"${duplicate}" twice`}`,
      );
      return ['public'];
    }
    return names;
  }

  email(name: string, fallback: string): string {
    const value = this.raw(name) ?? fallback;
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
      this.problems.push(`${name} must be an email address (got ${JSON.stringify(value)})`);
    }
    return value;
  }
}

/**
 * Schemas PGRST_DB_SCHEMAS may not name (decision 155): PostgreSQL's catalogs, the platform's own
 * (auth, storage, realtime, their helpers, the job leases, the migration ledger), the product's
 * `private` helpers and `extensions`. Their functions are executable by the API roles, so exposing one
 * would make every such function an RPC; their tables are written only through their services.
 */
const RESERVED_SCHEMAS = new Set([
  'information_schema',
  'auth',
  'storage',
  'realtime',
  'realtime_check',
  'jobs',
  '_platform',
  'private',
  'extensions',
]);

/** Hides the password of a connection string in messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]*)@/, '//$1:***@');
}

const FIVE_MINUTES_MAX = 1_000_000_000;

function readAuthConfig(read: Reader): AuthConfig {
  return {
    passwordMinLength: read.int('PASSWORD_MIN_LENGTH', 6, 6, 256),
    passwordRequiredCharacters: read.list('PASSWORD_REQUIRED_CHARACTERS', ':'),
    mailerOtpExp: read.int('MAILER_OTP_EXP', 3600, 60, 86400),
    mailerOtpLength: read.int('MAILER_OTP_LENGTH', 6, 6, 10),
    secureEmailChange: read.bool('MAILER_SECURE_EMAIL_CHANGE_ENABLED', true),
    updatePasswordRequireReauthentication: read.bool('UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION', false),
    refreshTokenReuseInterval: read.int('REFRESH_TOKEN_REUSE_INTERVAL', 10, 0, 3600),
    manualLinking: read.bool('ENABLE_MANUAL_LINKING', true),
    otpRevealsUnknownEmail: read.bool('OTP_REVEALS_UNKNOWN_EMAIL', false),
    mfaMaxEnrolledFactors: read.int('MFA_MAX_ENROLLED_FACTORS', 10, 1, 100),
    webauthn: {
      enrollEnabled: read.bool('MFA_WEBAUTHN_ENROLL_ENABLED', false),
      verifyEnabled: read.bool('MFA_WEBAUTHN_VERIFY_ENABLED', false),
      rpId: read.string('WEBAUTHN_RP_ID'),
      rpOrigins: read.list('WEBAUTHN_RP_ORIGINS'),
      rpDisplayName: read.string('WEBAUTHN_RP_DISPLAY_NAME'),
      challengeExpiry: read.int('WEBAUTHN_CHALLENGE_EXPIRY_DURATION', 300, 30, 3600),
    },
    passkey: {
      enabled: read.bool('PASSKEY_ENABLED', false),
      maxPerUser: read.int('PASSKEY_MAX_PASSKEYS_PER_USER', 10, 1, 100),
    },
    mfaChallengeExpiry: read.int('MFA_CHALLENGE_EXPIRY_DURATION', 300, 30, 3600),
    flowStateExpiry: read.int('FLOW_STATE_EXPIRY', 300, 30, 86400),
    smtpMaxFrequency: read.int('SMTP_MAX_FREQUENCY', 60, 0, 86400),
    rateLimits: {
      emailSent: read.int('RATE_LIMIT_EMAIL_SENT', 30, 1, FIVE_MINUTES_MAX),
      signIn: read.int('RATE_LIMIT_SIGN_IN_SIGN_UPS', 30, 1, FIVE_MINUTES_MAX),
      tokenRefresh: read.int('RATE_LIMIT_TOKEN_REFRESH', 150, 1, FIVE_MINUTES_MAX),
      verify: read.int('RATE_LIMIT_VERIFY', 30, 1, FIVE_MINUTES_MAX),
      otp: read.int('RATE_LIMIT_OTP', 30, 1, FIVE_MINUTES_MAX),
      emailPerClient: read.int('RATE_LIMIT_EMAIL_PER_CLIENT', 6, 1, FIVE_MINUTES_MAX),
      emailPerRecipient: read.int('RATE_LIMIT_EMAIL_PER_RECIPIENT', 4, 1, FIVE_MINUTES_MAX),
      anonymousUsers: read.int('RATE_LIMIT_ANONYMOUS_USERS', 30, 1, FIVE_MINUTES_MAX),
      passkey: read.int('RATE_LIMIT_PASSKEY', 30, 1, FIVE_MINUTES_MAX),
    },
    signInThrottle: {
      freeFailures: read.int('SIGN_IN_FAILURES_BEFORE_DELAY', 5, 1, 1000),
      delaySeconds: read.int('SIGN_IN_DELAY_SECONDS', 30, 1, 86400),
      maxDelaySeconds: read.int('SIGN_IN_MAX_DELAY_SECONDS', 900, 1, 86400),
    },
  };
}

/** Names GoTrue reserves for its own sign-in methods; a social provider cannot take them. */
const RESERVED_PROVIDERS = new Set(['email', 'phone', 'anonymous_users', 'saml', 'sso']);

function readOAuthConfig(read: Reader): OAuthProviderConfig | undefined {
  const provider = read.string('OAUTH_PROVIDER');
  const endpoint = (name: string) => read.url(name, ['http:', 'https:']);
  const issuer = endpoint('OAUTH_ISSUER');
  const authorizationEndpoint = endpoint('OAUTH_AUTHORIZATION_ENDPOINT');
  const tokenEndpoint = endpoint('OAUTH_TOKEN_ENDPOINT');
  const userinfoEndpoint = endpoint('OAUTH_USERINFO_ENDPOINT');
  const jwksUri = endpoint('OAUTH_JWKS_URI');
  const clientId = read.string('OAUTH_CLIENT_ID');
  if (provider === undefined) return undefined;
  if (!/^[a-z0-9_:-]{1,64}$/.test(provider) || RESERVED_PROVIDERS.has(provider)) {
    read.problems.push(
      `OAUTH_PROVIDER must be a provider name of lower-case letters, digits, "_", ":" or "-" other than ${[...RESERVED_PROVIDERS].join(', ')} (got ${JSON.stringify(provider)})`,
    );
  }
  if (clientId === undefined) read.problems.push('OAUTH_CLIENT_ID is required when OAUTH_PROVIDER is set');
  if (issuer === undefined && (authorizationEndpoint === undefined || tokenEndpoint === undefined)) {
    read.problems.push(
      'OAUTH_ISSUER (OpenID Connect discovery) or both OAUTH_AUTHORIZATION_ENDPOINT and OAUTH_TOKEN_ENDPOINT are required when OAUTH_PROVIDER is set',
    );
  }
  return {
    provider,
    clientId: clientId ?? '',
    clientSecret: read.string('OAUTH_CLIENT_SECRET'),
    issuer,
    authorizationEndpoint,
    tokenEndpoint,
    userinfoEndpoint,
    jwksUri,
    scopes: read.string('OAUTH_SCOPES', issuer === undefined ? 'email profile' : 'openid email profile'),
  };
}

function readPaymentsConfig(read: Reader): PaymentsConfig {
  const secretKey = read.string('STRIPE_SECRET_KEY');
  const webhookSecret = read.string('STRIPE_WEBHOOK_SECRET');
  const priceId = read.string('STRIPE_PRICE_ID');
  const apiBase = read.url('STRIPE_API_BASE', ['http:', 'https:']);
  const set = [secretKey, webhookSecret, priceId].filter((value) => value !== undefined).length;
  if (set !== 0 && set !== 3) {
    read.problems.push(
      'STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID must be set together (or none, for demo mode)',
    );
  }
  if (secretKey !== undefined && !/^(sk|rk)_(test|live)_/.test(secretKey)) {
    read.problems.push('STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_…, sk_test_… or rk_…)');
  }
  if (webhookSecret !== undefined && !webhookSecret.startsWith('whsec_')) {
    read.problems.push("STRIPE_WEBHOOK_SECRET must be the webhook endpoint's signing secret (whsec_…)");
  }
  if (priceId !== undefined && !/^price_[A-Za-z0-9]+$/.test(priceId)) {
    read.problems.push('STRIPE_PRICE_ID must be the id of the monthly price (price_…)');
  }
  return {
    stripe:
      secretKey && webhookSecret && priceId
        ? { secretKey, webhookSecret, priceId, apiBase: apiBase ? new URL(apiBase) : undefined }
        : undefined,
    graceDays: read.int('SUBSCRIPTION_GRACE_DAYS', 7, 0, 60),
    webhookToleranceSeconds: read.int('STRIPE_WEBHOOK_TOLERANCE_SECONDS', 300, 10, 3600),
  };
}

/**
 * Whether SITE_URL names a development or private address no search engine should index: localhost,
 * loopback and private IPv4/IPv6 ranges, and the reserved `.local`, `.localhost`, `.internal`, `.test`,
 * `.example`, `.invalid` names.
 */
export function isLocalSiteUrl(siteUrl: string): boolean {
  let host: string;
  try {
    host = new URL(siteUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return true;
  }
  if (host === 'localhost' || /\.(local|localhost|internal|test|example|invalid)$/.test(host)) return true;
  if (!host.includes('.') && !host.includes(':')) return true; // a single-label name (an intranet host)
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 127 ||
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (host.includes(':'))
    return host === '::1' || host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  return false;
}

export function loadConfig(env: Env = process.env): Config {
  const read = new Reader(env);
  const port = read.int('PORT', 3000, 0, 65535);
  const host = read.string('HOST', '127.0.0.1');
  const siteUrl = read.url('SITE_URL', ['http:', 'https:']) ?? `http://${host}:${port}`;
  const metricsToken = read.string('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) {
    read.problems.push('METRICS_TOKEN must be at least 16 characters long');
  }
  const jwtSecret = read.string('JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    read.problems.push('JWT_SECRET must be at least 32 characters long');
  }

  const storageBackend = read.oneOf('STORAGE_BACKEND', ['file', 's3'] as const, 'file');
  const dbPoolMax = read.int('DB_POOL_MAX', 10, 1, 1000);

  const config: Config = {
    port,
    host,
    dataDir: resolve(read.string('DATA_DIR', './data')),
    databaseUrl: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dbPoolMax,
    dbPoolPerClient: read.int('DB_POOL_PER_CLIENT', Math.max(1, Math.floor(dbPoolMax / 4)), 1, 1000),
    dbAcquireTimeoutMs: read.int('DB_ACQUIRE_TIMEOUT_MS', 1000, 10, 60_000),
    siteUrl: siteUrl.replace(/\/+$/, ''),
    apiExternalUrl: read.url('API_EXTERNAL_URL', ['http:', 'https:'])?.replace(/\/+$/, ''),
    additionalRedirectUrls: read.list('ADDITIONAL_REDIRECT_URLS'),
    jwtSecret,
    anonKey: read.string('ANON_KEY'),
    serviceRoleKey: read.string('SERVICE_ROLE_KEY'),
    publishableKey: read.string('PUBLISHABLE_KEY'),
    secretKey: read.string('SECRET_KEY'),
    jwtSigningAlgorithm: read.oneOf('JWT_SIGNING_ALGORITHM', ['HS256', 'ES256', 'RS256'] as const, 'HS256'),
    jwtSigningKeys: read.string('JWT_SIGNING_KEYS'),
    jwtExpiry: read.int('JWT_EXPIRY', 3600, 30, 604800),
    enableEmailAutoconfirm: read.bool('ENABLE_EMAIL_AUTOCONFIRM', false),
    disableSignup: read.bool('DISABLE_SIGNUP', false),
    enableAnonymousUsers: read.bool('ENABLE_ANONYMOUS_USERS', false),
    smtp: {
      host: read.string('SMTP_HOST'),
      port: read.int('SMTP_PORT', 587, 1, 65535),
      user: read.string('SMTP_USER'),
      pass: read.string('SMTP_PASS'),
      adminEmail: read.email('SMTP_ADMIN_EMAIL', 'no-reply@highgrade.local'),
      senderName: read.string('SMTP_SENDER_NAME', 'HighGrade'),
    },
    storageBackend,
    storage: {
      fileSizeLimit: read.int('FILE_SIZE_LIMIT', 50 * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER),
      uploadSignedUrlExpirySeconds: read.int('UPLOAD_SIGNED_URL_EXPIRATION_TIME', 7200, 1, 604800),
      s3: {
        bucket: read.string('STORAGE_S3_BUCKET'),
        endpoint: read.url('STORAGE_S3_ENDPOINT', ['http:', 'https:']),
        region: read.string('STORAGE_S3_REGION', 'us-east-1'),
        forcePathStyle: read.bool('STORAGE_S3_FORCE_PATH_STYLE', false),
        accessKeyId: read.string('AWS_ACCESS_KEY_ID'),
        secretAccessKey: read.string('AWS_SECRET_ACCESS_KEY'),
      },
    },
    supportEmail: read.email('SUPPORT_EMAIL', 'support@highgrade.local'),
    metricsToken,
    siteName: read.string('SITE_NAME', 'HighGrade'),
    searchIndexing: read.bool('SEARCH_INDEXING', !isLocalSiteUrl(siteUrl)),
    sitemapUrlsPerFile: read.int('SITEMAP_URLS_PER_FILE', 50_000, 1, 50_000),
    auth: readAuthConfig(read),
    oauth: readOAuthConfig(read),
    logLevel: read.oneOf(
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    trustProxy: read.trustProxy('TRUST_PROXY'),
    statementTimeoutsMs: {
      anon: read.int('ANON_STATEMENT_TIMEOUT_MS', 3000, 100, 600_000),
      authenticated: read.int('AUTHENTICATED_STATEMENT_TIMEOUT_MS', 8000, 100, 600_000),
      service_role: read.int('STATEMENT_TIMEOUT_MS', 8000, 100, 600_000),
    },
    restMaxRows: read.int('PGRST_DB_MAX_ROWS', 1000, 1, 1_000_000),
    restAggregates: read.bool('PGRST_DB_AGGREGATES_ENABLED', false),
    restPlans: read.bool('PGRST_DB_PLAN_ENABLED', false),
    restSchemas: read.schemas('PGRST_DB_SCHEMAS'),
    demoContent: read.bool('DEMO_CONTENT', true),
    autoSignOutMs: read.int('AUTO_SIGN_OUT_MS', 2 * 60 * 60 * 1000, 1000, 30 * 24 * 60 * 60 * 1000),
    realtime: {
      maxConnections: read.int('REALTIME_MAX_CONNECTIONS', 200, 1, 1_000_000),
      maxChannelsPerClient: read.int('REALTIME_MAX_CHANNELS_PER_CLIENT', 100, 1, 10_000),
      maxEventsPerSecond: read.int('REALTIME_MAX_EVENTS_PER_SECOND', 100, 1, 1_000_000),
      maxPayloadBytes: read.int('REALTIME_MAX_PAYLOAD_KB', 256, 1, 3000) * 1024,
      maxRecordBytes: read.int('REALTIME_MAX_RECORD_KB', 1024, 1, 65_536) * 1024,
      idleTimeoutMs: read.int('REALTIME_IDLE_TIMEOUT_MS', 60_000, 1000, 3_600_000),
      changeBatchSize: read.int('REALTIME_CHANGE_BATCH_SIZE', 200, 1, 10_000),
      applyParallelism: read.int('REALTIME_APPLY_PARALLELISM', 2, 1, 64),
      pollIntervalMs: read.int('REALTIME_POLL_INTERVAL_MS', 1000, 50, 60_000),
      heartbeatIntervalMs: read.int('REALTIME_HEARTBEAT_INTERVAL_MS', 5000, 100, 60_000),
      replayRetentionHours: read.int('REALTIME_REPLAY_RETENTION_HOURS', 72, 0, 720),
    },
    functions: {
      gdprExportsPerHour: read.int('GDPR_EXPORT_LIMIT_PER_HOUR', 5, 1, 1000),
      votes: {
        minAccountAgeHours: read.int('VOTE_MIN_ACCOUNT_AGE_HOURS', 24, 0, 8760),
        ringDetection: read.bool('VOTE_RING_DETECTION', true),
      },
    },
    payments: readPaymentsConfig(read),
    news: {
      refreshMinutes: read.int('NEWS_REFRESH_MINUTES', 30, 0, 10_080),
      allowPrivateHosts: read.bool('NEWS_ALLOW_PRIVATE_HOSTS', false),
      fetchTimeoutMs: read.int('NEWS_FETCH_TIMEOUT_MS', 15_000, 100, 120_000),
      maxFeedBytes: read.int('NEWS_MAX_FEED_KB', 5120, 16, 51_200) * 1024,
    },
    marketQuotes: {
      url: read.url('MARKET_QUOTES_URL', ['http:', 'https:']),
      key: read.string('MARKET_QUOTES_KEY'),
      refreshMinutes: read.int('MARKET_QUOTES_REFRESH_MINUTES', 24 * 60, 1, 10_080),
      timeoutMs: read.int('MARKET_QUOTES_TIMEOUT_MS', 15_000, 100, 120_000),
      lookbackDays: read.int('MARKET_QUOTES_LOOKBACK_DAYS', 7, 0, 366),
      historyDays: read.int('MARKET_QUOTES_HISTORY_DAYS', 366, 1, 36_600),
    },
  };

  const { s3 } = config.storage;
  if (storageBackend === 's3' && !s3.bucket) {
    read.problems.push('STORAGE_S3_BUCKET must name the bucket when STORAGE_BACKEND is s3');
  }
  if ((s3.accessKeyId === undefined) !== (s3.secretAccessKey === undefined)) {
    read.problems.push('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together');
  }
  const throttle = config.auth.signInThrottle;
  if (throttle.delaySeconds > throttle.maxDelaySeconds) {
    read.problems.push(
      `SIGN_IN_DELAY_SECONDS (${throttle.delaySeconds}) must not exceed SIGN_IN_MAX_DELAY_SECONDS (${throttle.maxDelaySeconds})`,
    );
  }
  if (config.dbPoolPerClient > config.dbPoolMax) {
    read.problems.push(
      `DB_POOL_PER_CLIENT (${config.dbPoolPerClient}) must not exceed DB_POOL_MAX (${config.dbPoolMax})`,
    );
  }
  if (config.realtime.applyParallelism >= config.dbPoolMax) {
    read.problems.push(
      `REALTIME_APPLY_PARALLELISM (${config.realtime.applyParallelism}) must be lower than DB_POOL_MAX (${config.dbPoolMax}), so requests keep connections`,
    );
  }
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}
