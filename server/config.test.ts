import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redact } from './config.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('has working defaults for a first `npm start`', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.siteUrl).toBe('http://127.0.0.1:3000');
    expect(config.jwtExpiry).toBe(3600);
    expect(config.enableEmailAutoconfirm).toBe(false);
    expect(config.storageBackend).toBe('file');
    expect(config.storage).toEqual({
      fileSizeLimit: 52428800,
      uploadSignedUrlExpirySeconds: 7200,
      s3: {
        bucket: undefined,
        endpoint: undefined,
        region: 'us-east-1',
        forcePathStyle: false,
        accessKeyId: undefined,
        secretAccessKey: undefined,
      },
    });
  });

  it('reads the storage settings', () => {
    const config = loadConfig({
      STORAGE_BACKEND: 's3',
      FILE_SIZE_LIMIT: '10485760',
      UPLOAD_SIGNED_URL_EXPIRATION_TIME: '600',
      STORAGE_S3_BUCKET: 'highgrade-files',
      STORAGE_S3_ENDPOINT: 'http://127.0.0.1:9000',
      STORAGE_S3_REGION: 'eu-central-1',
      STORAGE_S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'key',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.storageBackend).toBe('s3');
    expect(config.storage).toEqual({
      fileSizeLimit: 10485760,
      uploadSignedUrlExpirySeconds: 600,
      s3: {
        bucket: 'highgrade-files',
        endpoint: 'http://127.0.0.1:9000',
        region: 'eu-central-1',
        forcePathStyle: true,
        accessKeyId: 'key',
        secretAccessKey: 'secret',
      },
    });
  });

  it.each([
    [{ STORAGE_BACKEND: 's3' }, 'STORAGE_S3_BUCKET must name the bucket when STORAGE_BACKEND is s3'],
    [{ AWS_ACCESS_KEY_ID: 'key' }, 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together'],
    [
      { FILE_SIZE_LIMIT: '5mb' },
      'FILE_SIZE_LIMIT must be a whole number from 1 to 9007199254740991 (got "5mb")',
    ],
    [
      { STORAGE_S3_ENDPOINT: 'minio:9000' },
      'STORAGE_S3_ENDPOINT must be a http or https URL (got "minio:9000")',
    ],
    [
      { UPLOAD_SIGNED_URL_EXPIRATION_TIME: '0' },
      'UPLOAD_SIGNED_URL_EXPIRATION_TIME must be a whole number from 1 to 604800 (got "0")',
    ],
  ])('rejects the storage setting %j', (env, message) => {
    expect(problemsOf(env)).toEqual([message]);
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/srv/highgrade',
      DATABASE_URL: 'postgres://app:secret@db:5432/highgrade',
      SITE_URL: 'https://highgrade.example/',
      ADDITIONAL_REDIRECT_URLS: 'https://a.example, https://b.example',
      JWT_EXPIRY: '600',
      ENABLE_EMAIL_AUTOCONFIRM: 'true',
      DISABLE_SIGNUP: 'yes',
      SUPPORT_EMAIL: 'help@highgrade.example',
      SITE_NAME: 'HG',
      TRUST_PROXY: '10.0.0.0/8',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/highgrade',
      databaseUrl: 'postgres://app:secret@db:5432/highgrade',
      siteUrl: 'https://highgrade.example',
      additionalRedirectUrls: ['https://a.example', 'https://b.example'],
      jwtExpiry: 600,
      enableEmailAutoconfirm: true,
      disableSignup: true,
      supportEmail: 'help@highgrade.example',
      siteName: 'HG',
      trustProxy: '10.0.0.0/8',
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535 (got "70000")'],
    [{ PORT: '-1' }, 'PORT must be a whole number from 0 to 65535 (got "-1")'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres or postgresql URL (got "mysql://x")'],
    [{ SITE_URL: 'not a url' }, 'SITE_URL must be a http or https URL (got "not a url")'],
    [{ ENABLE_EMAIL_AUTOCONFIRM: 'maybe' }, 'ENABLE_EMAIL_AUTOCONFIRM must be true or false (got "maybe")'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET must be at least 32 characters long'],
    [{ STORAGE_BACKEND: 'ftp' }, 'STORAGE_BACKEND must be one of file, s3 (got "ftp")'],
    [{ SUPPORT_EMAIL: 'nobody' }, 'SUPPORT_EMAIL must be an email address (got "nobody")'],
    [{ PGRST_DB_MAX_ROWS: '0' }, 'PGRST_DB_MAX_ROWS must be a whole number from 1 to 1000000 (got "0")'],
    [{ PGRST_DB_MAX_ROWS: 'all' }, 'PGRST_DB_MAX_ROWS must be a whole number from 1 to 1000000 (got "all")'],
  ])('rejects %j with a clear message', (env, message) => {
    expect(problemsOf(env)).toEqual([message]);
  });

  it('caps data API reads at PGRST_DB_MAX_ROWS, 1000 by default', () => {
    expect(loadConfig({}).restMaxRows).toBe(1000);
    expect(loadConfig({ PGRST_DB_MAX_ROWS: '250' }).restMaxRows).toBe(250);
    expect(loadConfig({}).restAggregates).toBe(false);
    expect(loadConfig({ PGRST_DB_AGGREGATES_ENABLED: 'true' }).restAggregates).toBe(true);
    expect(loadConfig({}).restPlans).toBe(false);
    expect(loadConfig({ PGRST_DB_PLAN_ENABLED: 'on' }).restPlans).toBe(true);
  });

  it('pages sitemaps at the protocol’s 50,000 URLs unless SITEMAP_URLS_PER_FILE says fewer (decision 186)', () => {
    expect(loadConfig({}).sitemapUrlsPerFile).toBe(50_000);
    expect(loadConfig({ SITEMAP_URLS_PER_FILE: '1000' }).sitemapUrlsPerFile).toBe(1000);
    expect(problemsOf({ SITEMAP_URLS_PER_FILE: '50001' })).toHaveLength(1);
    expect(problemsOf({ SITEMAP_URLS_PER_FILE: '0' })).toHaveLength(1);
  });

  it('exposes the PGRST_DB_SCHEMAS schemas through the data API, public by default (decision 155)', () => {
    expect(loadConfig({}).restSchemas).toEqual(['public']);
    expect(loadConfig({ PGRST_DB_SCHEMAS: ' public , api ' }).restSchemas).toEqual(['public', 'api']);
    expect(loadConfig({ PGRST_DB_SCHEMAS: 'api,public' }).restSchemas).toEqual(['api', 'public']);
    expect(loadConfig({ PGRST_DB_SCHEMAS: 'Api' }).restSchemas).toEqual(['Api']);
    const refused: [string, string][] = [
      ['public,auth', '"auth" (kept by the platform, never exposed)'],
      ['private', '"private" (kept by the platform, never exposed)'],
      ['storage', '"storage" (kept by the platform, never exposed)'],
      ['pg_catalog', '"pg_catalog" (kept by the platform, never exposed)'],
      ['information_schema', '"information_schema" (kept by the platform, never exposed)'],
      ['public,,api', 'an empty name'],
      ['public,', 'an empty name'],
      ['api,public,api', '"api" twice'],
      [`public,${'x'.repeat(64)}`, `"${'x'.repeat(20)}…" (longer than 63 bytes)`],
      ['pub\u0001lic', '"pub\\u0001lic" (not printable ASCII)'],
      ['public,økonomi', '"økonomi" (not printable ASCII)'],
    ];
    for (const [value, problem] of refused) {
      expect(problemsOf({ PGRST_DB_SCHEMAS: value })).toEqual([
        `PGRST_DB_SCHEMAS must be a comma-separated list of schemas to expose, each once; got ${problem}`,
      ]);
    }
  });

  it('signs idle members out after AUTO_SIGN_OUT_MS, 2 hours by default', () => {
    expect(loadConfig({}).autoSignOutMs).toBe(7_200_000);
    expect(loadConfig({ AUTO_SIGN_OUT_MS: '5000' }).autoSignOutMs).toBe(5000);
    expect(problemsOf({ AUTO_SIGN_OUT_MS: '999' })).toEqual([
      'AUTO_SIGN_OUT_MS must be a whole number from 1000 to 2592000000 (got "999")',
    ]);
    expect(problemsOf({ AUTO_SIGN_OUT_MS: '2h' })).toHaveLength(1);
  });

  it('limits GDPR data exports to GDPR_EXPORT_LIMIT_PER_HOUR per user, 5 by default', () => {
    expect(loadConfig({}).functions.gdprExportsPerHour).toBe(5);
    expect(loadConfig({ GDPR_EXPORT_LIMIT_PER_HOUR: '2' }).functions.gdprExportsPerHour).toBe(2);
    expect(problemsOf({ GDPR_EXPORT_LIMIT_PER_HOUR: '0' })).toEqual([
      'GDPR_EXPORT_LIMIT_PER_HOUR must be a whole number from 1 to 1000 (got "0")',
    ]);
  });

  it('keeps anonymous sign-ins off unless ENABLE_ANONYMOUS_USERS is true (decision 148)', () => {
    expect(loadConfig({}).enableAnonymousUsers).toBe(false);
    expect(loadConfig({ ENABLE_ANONYMOUS_USERS: 'true' }).enableAnonymousUsers).toBe(true);
    expect(loadConfig({ RATE_LIMIT_ANONYMOUS_USERS: '5' }).auth.rateLimits.anonymousUsers).toBe(5);
    expect(problemsOf({ ENABLE_ANONYMOUS_USERS: 'sometimes' })).toEqual([
      'ENABLE_ANONYMOUS_USERS must be true or false (got "sometimes")',
    ]);
  });

  it('reports every problem at once', () => {
    expect(problemsOf({ PORT: 'x', JWT_EXPIRY: 'y' })).toHaveLength(2);
  });

  it('never repeats a database password in a message', () => {
    const [problem] = problemsOf({ DATABASE_URL: 'mysql://user:hunter2@host/db' });
    expect(problem).not.toContain('hunter2');
    expect(redact('postgres://user:hunter2@host:5432/db')).toBe('postgres://user:***@host:5432/db');
  });

  it('has GoTrue’s defaults for the auth service', () => {
    const { auth, oauth } = loadConfig({});
    expect(auth).toEqual({
      passwordMinLength: 6,
      passwordRequiredCharacters: [],
      mailerOtpExp: 3600,
      mailerOtpLength: 6,
      secureEmailChange: true,
      updatePasswordRequireReauthentication: false,
      refreshTokenReuseInterval: 10,
      manualLinking: true,
      otpRevealsUnknownEmail: false,
      mfaMaxEnrolledFactors: 10,
      webauthn: {
        enrollEnabled: false,
        verifyEnabled: false,
        rpId: undefined,
        rpOrigins: [],
        rpDisplayName: undefined,
        challengeExpiry: 300,
      },
      passkey: { enabled: false, maxPerUser: 10 },
      mfaChallengeExpiry: 300,
      flowStateExpiry: 300,
      smtpMaxFrequency: 60,
      rateLimits: {
        emailSent: 30,
        signIn: 30,
        tokenRefresh: 150,
        verify: 30,
        otp: 30,
        emailPerClient: 6,
        emailPerRecipient: 4,
        anonymousUsers: 30,
        passkey: 30,
      },
      signInThrottle: { freeFailures: 5, delaySeconds: 30, maxDelaySeconds: 900 },
    });
    expect(oauth).toBeUndefined();
  });

  it('reads the auth settings and the social provider', () => {
    const config = loadConfig({
      PASSWORD_MIN_LENGTH: '10',
      PASSWORD_REQUIRED_CHARACTERS: 'abc:0123456789',
      REFRESH_TOKEN_REUSE_INTERVAL: '0',
      RATE_LIMIT_EMAIL_SENT: '500',
      OAUTH_PROVIDER: 'google',
      OAUTH_CLIENT_ID: 'client',
      OAUTH_CLIENT_SECRET: 'secret',
      OAUTH_ISSUER: 'https://accounts.google.com',
    });
    expect(config.auth).toMatchObject({
      passwordMinLength: 10,
      passwordRequiredCharacters: ['abc', '0123456789'],
      refreshTokenReuseInterval: 0,
      rateLimits: { emailSent: 500 },
    });
    expect(config.oauth).toEqual({
      provider: 'google',
      clientId: 'client',
      clientSecret: 'secret',
      issuer: 'https://accounts.google.com',
      authorizationEndpoint: undefined,
      tokenEndpoint: undefined,
      userinfoEndpoint: undefined,
      jwksUri: undefined,
      scopes: 'openid email profile',
    });
    const plain = loadConfig({
      OAUTH_PROVIDER: 'github',
      OAUTH_CLIENT_ID: 'c',
      OAUTH_AUTHORIZATION_ENDPOINT: 'https://github.com/login/oauth/authorize',
      OAUTH_TOKEN_ENDPOINT: 'https://github.com/login/oauth/access_token',
      OAUTH_USERINFO_ENDPOINT: 'https://api.github.com/user',
    });
    expect(plain.oauth?.scopes).toBe('email profile');
  });

  it.each([
    [{ PASSWORD_MIN_LENGTH: '4' }, 'PASSWORD_MIN_LENGTH must be a whole number from 6 to 256 (got "4")'],
    [
      { OAUTH_PROVIDER: 'google', OAUTH_ISSUER: 'https://i.example' },
      'OAUTH_CLIENT_ID is required when OAUTH_PROVIDER is set',
    ],
    [
      { OAUTH_PROVIDER: 'google', OAUTH_CLIENT_ID: 'c' },
      'OAUTH_ISSUER (OpenID Connect discovery) or both OAUTH_AUTHORIZATION_ENDPOINT and OAUTH_TOKEN_ENDPOINT are required when OAUTH_PROVIDER is set',
    ],
    [{ OAUTH_ISSUER: 'ftp://x' }, 'OAUTH_ISSUER must be a http or https URL (got "ftp://x")'],
  ])('rejects auth setting %j', (env, message) => {
    expect(problemsOf(env)).toEqual([message]);
  });

  it('refuses provider names GoTrue reserves', () => {
    const [problem] = problemsOf({
      OAUTH_PROVIDER: 'email',
      OAUTH_CLIENT_ID: 'c',
      OAUTH_ISSUER: 'https://i.example',
    });
    expect(problem).toMatch(/^OAUTH_PROVIDER must be a provider name/);
  });
});

describe('loadConfig: realtime', () => {
  it('defaults to Supabase-like limits', () => {
    expect(loadConfig({}).realtime).toEqual({
      maxConnections: 200,
      maxChannelsPerClient: 100,
      maxEventsPerSecond: 100,
      maxPayloadBytes: 256 * 1024,
      maxRecordBytes: 1024 * 1024,
      idleTimeoutMs: 60_000,
      changeBatchSize: 200,
      applyParallelism: 2,
      pollIntervalMs: 1000,
      heartbeatIntervalMs: 5000,
      replayRetentionHours: 72,
    });
  });

  it('reads every REALTIME_ variable', () => {
    const config = loadConfig({
      REALTIME_MAX_CONNECTIONS: '5000',
      REALTIME_MAX_CHANNELS_PER_CLIENT: '10',
      REALTIME_MAX_EVENTS_PER_SECOND: '20',
      REALTIME_MAX_PAYLOAD_KB: '64',
      REALTIME_MAX_RECORD_KB: '128',
      REALTIME_IDLE_TIMEOUT_MS: '30000',
      REALTIME_CHANGE_BATCH_SIZE: '50',
      REALTIME_APPLY_PARALLELISM: '4',
      REALTIME_POLL_INTERVAL_MS: '250',
      REALTIME_HEARTBEAT_INTERVAL_MS: '2000',
      REALTIME_REPLAY_RETENTION_HOURS: '24',
    });
    expect(config.realtime).toEqual({
      maxConnections: 5000,
      maxChannelsPerClient: 10,
      maxEventsPerSecond: 20,
      maxPayloadBytes: 64 * 1024,
      maxRecordBytes: 128 * 1024,
      idleTimeoutMs: 30_000,
      changeBatchSize: 50,
      applyParallelism: 4,
      pollIntervalMs: 250,
      heartbeatIntervalMs: 2000,
      replayRetentionHours: 24,
    });
  });

  it('limits database work per role and per client (decision 092)', () => {
    const defaults = loadConfig({});
    expect(defaults.statementTimeoutsMs).toEqual({ anon: 3000, authenticated: 8000, service_role: 8000 });
    expect(defaults.dbAcquireTimeoutMs).toBe(1000);
    expect(defaults.dbPoolPerClient).toBe(2);
    const config = loadConfig({
      ANON_STATEMENT_TIMEOUT_MS: '1500',
      AUTHENTICATED_STATEMENT_TIMEOUT_MS: '4000',
      STATEMENT_TIMEOUT_MS: '20000',
      DB_ACQUIRE_TIMEOUT_MS: '250',
      DB_POOL_MAX: '40',
    });
    expect(config.statementTimeoutsMs).toEqual({ anon: 1500, authenticated: 4000, service_role: 20000 });
    expect(config.dbAcquireTimeoutMs).toBe(250);
    expect(config.dbPoolPerClient).toBe(10);
    expect(loadConfig({ DB_POOL_MAX: '3' }).dbPoolPerClient).toBe(1);
    expect(loadConfig({ DB_POOL_MAX: '12', DB_POOL_PER_CLIENT: '5' }).dbPoolPerClient).toBe(5);
  });

  it.each([
    [{ DB_POOL_MAX: '4', DB_POOL_PER_CLIENT: '5' }, 'DB_POOL_PER_CLIENT (5) must not exceed DB_POOL_MAX (4)'],
    [
      { ANON_STATEMENT_TIMEOUT_MS: '10' },
      'ANON_STATEMENT_TIMEOUT_MS must be a whole number from 100 to 600000 (got "10")',
    ],
    [
      { DB_ACQUIRE_TIMEOUT_MS: 'soon' },
      'DB_ACQUIRE_TIMEOUT_MS must be a whole number from 10 to 60000 (got "soon")',
    ],
    [
      { REALTIME_MAX_CONNECTIONS: '0' },
      'REALTIME_MAX_CONNECTIONS must be a whole number from 1 to 1000000 (got "0")',
    ],
    [
      { REALTIME_MAX_PAYLOAD_KB: '4000' },
      'REALTIME_MAX_PAYLOAD_KB must be a whole number from 1 to 3000 (got "4000")',
    ],
    [
      { REALTIME_MAX_EVENTS_PER_SECOND: 'lots' },
      'REALTIME_MAX_EVENTS_PER_SECOND must be a whole number from 1 to 1000000 (got "lots")',
    ],
    [
      { REALTIME_APPLY_PARALLELISM: '4', DB_POOL_MAX: '4' },
      'REALTIME_APPLY_PARALLELISM (4) must be lower than DB_POOL_MAX (4), so requests keep connections',
    ],
    [
      { REALTIME_IDLE_TIMEOUT_MS: '10' },
      'REALTIME_IDLE_TIMEOUT_MS must be a whole number from 1000 to 3600000 (got "10")',
    ],
  ])('rejects %j with a clear message', (env, message) => {
    expect(problemsOf(env)).toEqual([message]);
  });
});

describe('payments (issue 22)', () => {
  const stripe = {
    STRIPE_SECRET_KEY: 'sk_test_abc',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    STRIPE_PRICE_ID: 'price_abc',
  };

  it('is demo mode without a payment account, Stripe with all three settings', () => {
    expect(loadConfig({}).payments).toEqual({
      stripe: undefined,
      graceDays: 7,
      webhookToleranceSeconds: 300,
    });
    const config = loadConfig({
      ...stripe,
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
      SUBSCRIPTION_GRACE_DAYS: '3',
    });
    expect(config.payments.stripe).toMatchObject({ secretKey: 'sk_test_abc', priceId: 'price_abc' });
    expect(config.payments.stripe?.apiBase?.port).toBe('12111');
    expect(config.payments.graceDays).toBe(3);
  });

  it('refuses some of the settings without the others, and values of the wrong kind', () => {
    expect(problemsOf({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toEqual([
      'STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID must be set together (or none, for demo mode)',
    ]);
    expect(problemsOf({ ...stripe, STRIPE_SECRET_KEY: 'pk_test_abc' })).toEqual([
      'STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_…, sk_test_… or rk_…)',
    ]);
    expect(problemsOf({ ...stripe, STRIPE_WEBHOOK_SECRET: 'abc' })).toHaveLength(1);
    expect(problemsOf({ ...stripe, STRIPE_PRICE_ID: 'prod_abc' })).toHaveLength(1);
  });
});
