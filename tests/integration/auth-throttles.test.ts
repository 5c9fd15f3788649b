/**
 * Mail and sign-in limits that stop attackers, not members (decision 095): one client or one recipient
 * cannot use up the mail everyone needs, a refused request never lengthens a wait, and a per-account
 * sign-in throttle slows a guesser spread over many addresses while the account's owner, on a browser
 * that signed in before, still gets in with the right password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#tests/support/clients.ts';
import { type AuthTestServer, startAuthServer } from '#tests/support/test-server.ts';
import { uniqueEmail } from '#tests/support/users.ts';

const PASSWORD = 'correct horse battery';

let addressCounter = 0;
/** A client address of its own (the servers below trust X-Forwarded-For from loopback). */
const freshAddress = () => `198.51.100.${++addressCounter}`;

function post(
  server: AuthTestServer,
  path: string,
  body: unknown,
  options: { from: string; cookie?: string },
): Promise<Response> {
  return fetch(`${server.url}/auth/v1${path}`, {
    method: 'POST',
    headers: {
      apikey: server.anonKey,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
      'x-forwarded-for': options.from,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: JSON.stringify(body),
  });
}

const signIn = (server: AuthTestServer, email: string, password: string, from: string, cookie?: string) =>
  post(server, '/token?grant_type=password', { email, password }, { from, cookie });

/** The device cookie a successful sign-in set, as the browser sends it back. */
function deviceCookieOf(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  const match = /(hg-device=[^;]+)/.exec(header);
  if (!match?.[1]) throw new Error(`no device cookie in ${JSON.stringify(header)}`);
  return match[1];
}

async function createMember(server: AuthTestServer): Promise<string> {
  const email = uniqueEmail('member');
  const { error } = await adminClient(server).auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  if (error) throw error;
  return email;
}

describe('mail limits per client and per recipient', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    // The shipped limits (30 mails an hour for the instance, 6 per client, 4 per recipient), but enough
    // request budget per address that only the mail limits speak.
    server = await startAuthServer({
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_EMAIL_SENT: '30',
      RATE_LIMIT_EMAIL_PER_CLIENT: '6',
      RATE_LIMIT_EMAIL_PER_RECIPIENT: '4',
      RATE_LIMIT_OTP: '1000',
      SMTP_MAX_FREQUENCY: '60',
    });
  });
  afterAll(() => server?.close());

  it('35 magic links to fresh addresses from one client leave the others their password resets', async () => {
    const attacker = freshAddress();
    const statuses: number[] = [];
    for (let index = 0; index < 35; index++) {
      const response = await post(
        server,
        '/otp',
        { email: uniqueEmail('fresh'), create_user: true },
        { from: attacker },
      );
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(6);
    expect(statuses.slice(6).every((status) => status === 429)).toBe(true);

    const member = await createMember(server);
    const reset = await post(server, '/recover', { email: member }, { from: freshAddress() });
    expect(reset.status).toBe(200);
  });

  it('lets one recipient receive at most RATE_LIMIT_EMAIL_PER_RECIPIENT mails an hour, from any number of clients', async () => {
    const victim = await createMember(server);
    const kinds = ['/recover', '/otp', '/resend', '/recover', '/otp'];
    const statuses: number[] = [];
    for (const [index, path] of kinds.entries()) {
      // Another kind each time (or a minute apart) would pass SMTP_MAX_FREQUENCY; the hourly cap holds.
      if (index === 3) {
        await server.db.query(
          `delete from auth.rate_limits where key like 'mail:recovery:%' or key like 'mail:magiclink:%'`,
        );
      }
      const body = path === '/resend' ? { email: victim, type: 'email_change' } : { email: victim };
      const response = await post(server, path, body, { from: freshAddress() });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    // Another recipient is unaffected.
    const other = await createMember(server);
    expect((await post(server, '/recover', { email: other }, { from: freshAddress() })).status).toBe(200);
  });

  it('answers a repeated "Send Reset Link" as the first, sending and counting nothing (decision 188)', async () => {
    const member = await createMember(server);
    const from = freshAddress();
    expect((await post(server, '/recover', { email: member }, { from })).status).toBe(200);
    // Within SMTP_MAX_FREQUENCY the same address gets GoTrue's {} again (no enumeration, decision 016),
    // and no second mail: a refused request never lengthens a wait, since it is never refused aloud.
    for (let index = 0; index < 3; index++) {
      const again = await post(server, '/recover', { email: member }, { from });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({});
    }
    // Refused requests counted nowhere: the client's counter and every recipient's show one mail each.
    const { rows } = await server.db.query<{ key: string; count: number }>(
      `select key, count from auth.rate_limits where key = $1 or key like 'mail:recovery:%'`,
      [`mail:from:${from}`],
    );
    expect(rows.find((row) => row.key === `mail:from:${from}`)?.count).toBe(1);
    expect(rows.filter((row) => row.key.startsWith('mail:recovery:')).map((row) => row.count)).not.toContain(
      2,
    );
  });

  it('keeps no address in its counters: recipients appear as keyed hashes', async () => {
    const member = await createMember(server);
    await post(server, '/recover', { email: member }, { from: freshAddress() });
    const { rows } = await server.db.query<{ key: string }>('select key from auth.rate_limits');
    expect(rows.some((row) => row.key.includes('@'))).toBe(false);
    expect(rows.some((row) => row.key.includes(member.split('@')[0] as string))).toBe(false);
  });
});

describe('the per-account sign-in throttle', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer({
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_SIGN_IN_SIGN_UPS: '3',
      SIGN_IN_FAILURES_BEFORE_DELAY: '3',
      SIGN_IN_DELAY_SECONDS: '60',
      SIGN_IN_MAX_DELAY_SECONDS: '900',
    });
  });
  afterAll(() => server?.close());

  it('slows a guesser spread over many addresses on the account, growing the wait', async () => {
    const email = await createMember(server);
    for (let index = 0; index < 3; index++) {
      const wrong = await signIn(server, email, `guess ${index}`, freshAddress());
      expect(wrong.status).toBe(400);
    }
    const fourth = await signIn(server, email, 'guess 3', freshAddress());
    expect(fourth.status).toBe(400);
    // The fourth failure locked the account for strangers: 60 s, whatever the next one brings.
    const locked = await signIn(server, email, PASSWORD, freshAddress());
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ code: 'over_request_rate_limit' });
    const wait = Number(locked.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);

    // Refused while locked: not counted, the wait does not grow.
    for (let index = 0; index < 3; index++) {
      const again = await signIn(server, email, `guess ${index}`, freshAddress());
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(wait);
    }
    // Once the lock runs out, the next failure locks for twice as long.
    await server.db.query(
      `update auth.sign_in_throttles set locked_until = now() where key like 'account:%'`,
    );
    expect((await signIn(server, email, 'guess 4', freshAddress())).status).toBe(400);
    const longer = await signIn(server, email, PASSWORD, freshAddress());
    expect(longer.status).toBe(429);
    expect(Number(longer.headers.get('retry-after'))).toBeGreaterThan(60);
  });

  it('lets the owner in with the right password from a browser that signed in before', async () => {
    const email = await createMember(server);
    const home = freshAddress();
    const first = await signIn(server, email, PASSWORD, home);
    expect(first.status).toBe(200);
    const cookie = deviceCookieOf(first);
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/);
    expect(first.headers.get('set-cookie')).toMatch(/SameSite=Strict/);
    expect(first.headers.get('set-cookie')).toMatch(/Path=\/auth\/v1/);

    for (let index = 0; index < 5; index++) await signIn(server, email, `guess ${index}`, freshAddress());
    expect((await signIn(server, email, PASSWORD, freshAddress())).status).toBe(429);

    const owner = await signIn(server, email, PASSWORD, home, cookie);
    expect(owner.status).toBe(200);
    // A device's own mistakes count against that device only.
    expect((await signIn(server, email, 'typo', home, deviceCookieOf(owner))).status).toBe(400);
    expect((await signIn(server, email, PASSWORD, home, deviceCookieOf(owner))).status).toBe(200);
    // A device token is the account's: another account's attempts from that browser are strangers'.
    const other = await createMember(server);
    for (let index = 0; index < 4; index++) await signIn(server, other, `guess ${index}`, freshAddress());
    expect((await signIn(server, other, PASSWORD, home, cookie)).status).toBe(429);
  });

  it('lets a known device past the per-address limit that locks out everyone behind one address', async () => {
    const office = freshAddress();
    const email = await createMember(server);
    const first = await signIn(server, email, PASSWORD, office);
    expect(first.status).toBe(200);
    const cookie = deviceCookieOf(first);
    // Colleagues behind the same address use up its 3 sign-ins.
    const colleague = await createMember(server);
    for (let index = 0; index < 2; index++) await signIn(server, colleague, PASSWORD, office);
    expect((await signIn(server, colleague, PASSWORD, office)).status).toBe(429);
    // The member whose browser signed in before is not one of the strangers.
    expect((await signIn(server, email, PASSWORD, office, cookie)).status).toBe(200);
  });

  it('ignores a forged or foreign device token', async () => {
    const email = await createMember(server);
    for (let index = 0; index < 4; index++) await signIn(server, email, `guess ${index}`, freshAddress());
    for (const forged of ['hg-device=abc.123.def', 'hg-device=', `hg-device=${'x'.repeat(500)}`]) {
      expect((await signIn(server, email, PASSWORD, freshAddress(), forged)).status).toBe(429);
    }
  });
});
