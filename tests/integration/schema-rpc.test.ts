// @databases: both — the remote procedures' SQL.
/**
 * The remote procedures of product §rpc at SQL level, called with named arguments exactly as PostgREST
 * calls them for supabase.rpc(name, { ...args }) (the JSON keys are the argument names).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, RequestScope } from '#server/db/driver.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import {
  anon,
  insertAccount,
  makeAdmin,
  runAs,
  serviceRole,
  setRateLimitRule,
  tryAs,
  user,
} from './schema-support.ts';

let handle: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;

const ALICE = '3a000000-0000-4000-8000-000000000001';
const BOB = '3a000000-0000-4000-8000-000000000002';
const ADMIN = '3a000000-0000-4000-8000-000000000003';

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
  await insertAccount(db, { id: ALICE, email: 'alice@rpc.example' });
  await insertAccount(db, { id: BOB, email: 'bob@rpc.example' });
  await insertAccount(db, { id: ADMIN, email: 'admin@rpc.example' });
  await makeAdmin(db, ADMIN);
});
afterAll(() => handle?.close());

let ipCounter = 0;
/** A fresh client address per test, so limits never leak from one test into another. */
const freshIp = () => `192.0.2.${++ipCounter}`;

/** A scope without any request headers: a server-side SQL session with nobody to attribute to. */
const headerless: RequestScope = { role: 'anon', claims: { role: 'anon' } };

interface Progressive {
  allowed: boolean;
  delay_seconds: number;
  remaining_attempts: number;
  violation_count: number;
}

async function progressive(
  scope: RequestScope,
  action: string | null,
  max: number | null = 3,
  window: number | null = 60,
): Promise<Progressive> {
  const [row] = await runAs<{ result: Progressive }>(
    db,
    scope,
    `select public.progressive_rate_limit_check(action_type_param := $1, base_max_attempts := $2, time_window_minutes := $3) as result`,
    [action, max, window],
  );
  return row?.result as Progressive;
}

async function global(scope: RequestScope, args: Record<string, unknown>): Promise<boolean> {
  const names = Object.keys(args);
  const [row] = await runAs<{ result: boolean }>(
    db,
    scope,
    `select public.global_rate_limit_check(${names.map((name, index) => `${name} := $${index + 1}`).join(', ')}) as result`,
    Object.values(args),
  );
  return row?.result as boolean;
}

/** Lets a block run out, as time would: every timestamp of the action moves back past its end. */
async function endBlock(action: string): Promise<void> {
  await db.transaction(async (tx) => {
    const shift = `(select greatest(interval '0', max(p.blocked_until) - now()) + interval '2 seconds'
                    from private.rate_limit_penalties p where p.action_type = $1)`;
    await tx.query(
      `update private.rate_limit_attempts set created_at = created_at - ${shift} where action_type = $1`,
      [action],
    );
    await tx.query(
      `update private.rate_limit_penalties set blocked_until = blocked_until - ${shift},
         last_violation_at = last_violation_at - ${shift} where action_type = $1`,
      [action],
    );
  });
}

describe('progressive_rate_limit_check(action_type_param, base_max_attempts, time_window_minutes)', () => {
  it('allows the server’s 5 sign-in attempts an hour (§limits), then refuses with the spec’s 60-second wait', async () => {
    const scope = anon(freshIp());
    // The caller asks for 3: the server's rule decides.
    expect(await progressive(scope, 'auth_signin', 3)).toEqual({
      allowed: true,
      delay_seconds: 0,
      remaining_attempts: 4,
      violation_count: 0,
    });
    for (const remaining of [3, 2, 1, 0]) {
      expect(await progressive(scope, 'auth_signin', 3)).toMatchObject({
        allowed: true,
        remaining_attempts: remaining,
      });
    }
    expect(await progressive(scope, 'auth_signin', 3)).toEqual({
      allowed: false,
      delay_seconds: 60,
      remaining_attempts: 0,
      violation_count: 1,
    });
  });

  it('ignores the limits a caller passes: 10 000 attempts asked, the server’s 3 sign-ups given', async () => {
    const scope = anon(freshIp());
    const answers: boolean[] = [];
    for (let index = 0; index < 5; index++) {
      answers.push((await progressive(scope, 'auth_signup', 10_000, 1440)).allowed);
    }
    expect(answers).toEqual([true, true, true, false, false]);
  });

  it('lengthens the delay with every repeated violation: 60, 120, 240 s …', async () => {
    const scope = anon(freshIp());
    const action = 'auth_signup';
    const delays: number[] = [];
    for (let violation = 0; violation < 4; violation++) {
      // After each block the attempts start afresh; exceeding them again doubles the wait.
      for (let index = 0; index < 3; index++) expect((await progressive(scope, action)).allowed).toBe(true);
      const result = await progressive(scope, action);
      expect(result.allowed).toBe(false);
      delays.push(result.delay_seconds);
      await endBlock(action);
    }
    expect(delays).toEqual([60, 120, 240, 480]);
  });

  it('starts password resets at the spec’s 300 seconds, and gives the attempts back once they are waited out', async () => {
    const scope = anon(freshIp());
    for (let index = 0; index < 2; index++) await progressive(scope, 'auth_reset', 2);
    expect(await progressive(scope, 'auth_reset', 2)).toMatchObject({ allowed: false, delay_seconds: 300 });
    // Pressing again while blocked changes nothing.
    expect((await progressive(scope, 'auth_reset', 2)).delay_seconds).toBeLessThanOrEqual(300);
    await endBlock('auth_reset');
    // Waited as told: not a second, doubled block at once, but the hour's attempts anew.
    expect(await progressive(scope, 'auth_reset', 2)).toMatchObject({ allowed: true });
    expect(await progressive(scope, 'auth_reset', 2)).toMatchObject({ allowed: true });
    expect(await progressive(scope, 'auth_reset', 2)).toMatchObject({ allowed: false, delay_seconds: 600 });
  });

  it('caps the delay at one day', async () => {
    const scope = anon(freshIp());
    for (let index = 0; index < 4; index++) await progressive(scope, 'auth_oauth', 1);
    await db.query(
      `update private.rate_limit_penalties set violation_count = 40 where action_type = 'auth_oauth'`,
    );
    await endBlock('auth_oauth');
    for (let index = 0; index < 3; index++) await progressive(scope, 'auth_oauth', 1);
    expect(await progressive(scope, 'auth_oauth', 1)).toMatchObject({
      allowed: false,
      delay_seconds: 86_400,
      violation_count: 41,
    });
  });

  it('answers a caller who is still blocked with the time left, without counting a new violation', async () => {
    const scope = anon(freshIp());
    const action = 'blocked_probe';
    await setRateLimitRule(db, action, { max: 1 });
    await progressive(scope, action, 1);
    await progressive(scope, action, 1);
    await db.query(
      `update private.rate_limit_penalties set blocked_until = now() + interval '42 seconds' where action_type = $1`,
      [action],
    );
    const again = await progressive(scope, action, 1);
    expect(again.allowed).toBe(false);
    expect(again.violation_count).toBe(1);
    expect(again.delay_seconds).toBeGreaterThanOrEqual(41);
    expect(again.delay_seconds).toBeLessThanOrEqual(42);
  });

  it('forgets violations after a quiet day and attempts outside the window', async () => {
    const scope = anon(freshIp());
    const action = 'forgetful';
    await setRateLimitRule(db, action, { max: 1 });
    await progressive(scope, action, 1);
    await progressive(scope, action, 1);
    await db.query(
      `update private.rate_limit_penalties set blocked_until = now() - interval '2 days', last_violation_at = now() - interval '2 days'
       where action_type = $1`,
      [action],
    );
    expect(await progressive(scope, action, 1)).toMatchObject({
      allowed: false,
      delay_seconds: 60,
      violation_count: 1,
    });
    await db.query(
      `update private.rate_limit_attempts set created_at = now() - interval '61 minutes' where action_type = $1`,
      [action],
    );
    await endBlock(action);
    expect(await progressive(scope, action, 1, 60)).toMatchObject({ allowed: true });
  });

  it('counts a signed-in user by account and a visitor by address', async () => {
    const ip = freshIp();
    const action = 'per_subject';
    await setRateLimitRule(db, action, { max: 1 });
    await progressive(user(ALICE, ip), action, 1);
    expect(await progressive(user(ALICE, freshIp()), action, 1)).toMatchObject({ allowed: false });
    expect(await progressive(user(BOB, ip), action, 1)).toMatchObject({ allowed: true });
    expect(await progressive(anon(ip), action, 1)).toMatchObject({ allowed: true });
    expect(await progressive(anon(ip), action, 1)).toMatchObject({ allowed: false });
    expect(await progressive(anon(freshIp()), action, 1)).toMatchObject({ allowed: true });
  });

  it('applies the "*" rule (5 attempts, 60 minutes) to actions without a rule of their own', async () => {
    const scope = anon(freshIp());
    const call = () =>
      runAs<{ r: Progressive }>(
        db,
        scope,
        `select public.progressive_rate_limit_check(action_type_param := 'defaults') as r`,
      );
    for (let index = 0; index < 5; index++) expect((await call())[0]?.r.allowed).toBe(true);
    expect((await call())[0]?.r.allowed).toBe(false);
  });

  it('lets a caller it cannot attribute proceed, as a failed check does in the web app', async () => {
    for (let index = 0; index < 3; index++) {
      expect(await progressive(headerless, 'nobody', 1)).toMatchObject({ allowed: true });
    }
  });

  it.each([
    ['a null action', null, 3, 60, '22004'],
    ['a null maximum', 'auth_signin', null, 60, '22004'],
    ['a null window', 'auth_signin', 3, null, '22004'],
    ['an empty action', '', 3, 60, '22023'],
    ['SQL in the action', "x'); drop table private.rate_limit_attempts; --", 3, 60, '22023'],
    ['a 65-character action', 'a'.repeat(65), 3, 60, '22023'],
    ['zero attempts', 'auth_signin', 0, 60, '22023'],
    ['negative attempts', 'auth_signin', -1, 60, '22023'],
    ['a huge maximum', 'auth_signin', 2_147_483_647, 60, '22023'],
    ['a zero window', 'auth_signin', 3, 0, '22023'],
    ['a negative window', 'auth_signin', 3, -60, '22023'],
    ['a window over a day', 'auth_signin', 3, 1441, '22023'],
  ] as const)('refuses %s', async (_name, action, max, window, code) => {
    const result = await tryAs(
      db,
      anon(freshIp()),
      'select public.progressive_rate_limit_check(action_type_param := $1, base_max_attempts := $2, time_window_minutes := $3)',
      [action, max, window],
    );
    expect(result.ok ? 'answered' : result.error.code).toBe(code);
  });
});

describe('global_rate_limit_check(action_type_param, max_attempts, time_window_minutes, ip_address, max_ip_attempts)', () => {
  it('takes the report flow’s arguments: 3 per 15 minutes per user, 10 per address (§limits)', async () => {
    const args = {
      action_type_param: 'scammer_report',
      max_attempts: 3,
      time_window_minutes: 15,
      max_ip_attempts: 10,
    };
    const results: boolean[] = [];
    for (let index = 0; index < 4; index++) results.push(await global(user(ALICE, freshIp()), args));
    expect(results).toEqual([true, true, true, false]);
  });

  it('ignores the limits a caller passes: the server’s 3 reports per user and 10 per address hold', async () => {
    const generous = {
      action_type_param: 'scammer_report',
      max_attempts: 10_000,
      time_window_minutes: 1,
      max_ip_attempts: 1_000_000,
    };
    const perUser: boolean[] = [];
    for (let index = 0; index < 4; index++) perUser.push(await global(user(BOB, freshIp()), generous));
    expect(perUser).toEqual([true, true, true, false]);
    // A visitor is counted by its address, under the rule's 3 (decision 190)…
    const visitor = freshIp();
    const perVisitor: boolean[] = [];
    for (let index = 0; index < 4; index++) perVisitor.push(await global(anon(visitor), generous));
    expect(perVisitor).toEqual([true, true, true, false]);
    // …and every caller at one address shares its 10.
    const ip = freshIp();
    await db.query(
      `insert into private.rate_limit_attempts (action_type, user_id, ip)
       select 'scammer_report', $1::uuid, $2::inet from generate_series(1, 9)`,
      [ADMIN, ip],
    );
    expect(await global(anon(ip), generous)).toBe(true);
    expect(await global(anon(ip), generous)).toBe(false);
  });

  it('limits an address across users and visitors', async () => {
    const ip = freshIp();
    await setRateLimitRule(db, 'per_ip', { max: 100, maxIp: 3 });
    const args = {
      action_type_param: 'per_ip',
      max_attempts: 100,
      time_window_minutes: 60,
      max_ip_attempts: 3,
    };
    expect(await global(user(ALICE, ip), args)).toBe(true);
    expect(await global(user(BOB, ip), args)).toBe(true);
    expect(await global(anon(ip), args)).toBe(true);
    expect(await global(user(ADMIN, ip), args)).toBe(false);
    expect(await global(anon(freshIp()), args)).toBe(true);
  });

  it('applies the "*" rule (5 per visitor, 50 per address an hour) to actions without a rule of their own', async () => {
    const visitor = freshIp();
    const results: boolean[] = [];
    for (let index = 0; index < 6; index++) {
      results.push(await global(anon(visitor), { action_type_param: 'default_ip', max_attempts: 1 }));
    }
    expect(results).toEqual([true, true, true, true, true, false]);
    const ip = freshIp();
    await db.query(
      `insert into private.rate_limit_attempts (action_type, user_id, ip)
       select 'default_ip', $1::uuid, $2::inet from generate_series(1, 48)`,
      [ADMIN, ip],
    );
    const shared: boolean[] = [];
    for (let index = 0; index < 3; index++) {
      shared.push(await global(anon(ip), { action_type_param: 'default_ip', max_attempts: 1 }));
    }
    expect(shared).toEqual([true, true, false]);
  });

  it('does not record refused attempts, and forgets attempts outside the window', async () => {
    const ip = freshIp();
    await setRateLimitRule(db, 'windowed', { max: 1, windowMinutes: 5, maxIp: 1 });
    const args = {
      action_type_param: 'windowed',
      max_attempts: 1,
      time_window_minutes: 5,
      max_ip_attempts: 1,
    };
    expect(await global(anon(ip), args)).toBe(true);
    expect(await global(anon(ip), args)).toBe(false);
    expect(await global(anon(ip), args)).toBe(false);
    const { rows } = await db.query(
      `select count(*)::int as n from private.rate_limit_attempts where action_type = 'windowed'`,
    );
    expect(rows).toEqual([{ n: 1 }]);
    await db.query(
      `update private.rate_limit_attempts set created_at = now() - interval '6 minutes' where action_type = 'windowed'`,
    );
    expect(await global(anon(ip), args)).toBe(true);
  });

  it('ignores an address a browser passes: the request’s own address counts', async () => {
    const ip = freshIp();
    await setRateLimitRule(db, 'spoof', { max: 2, maxIp: 10 });
    const args = (other: string) => ({
      action_type_param: 'spoof',
      max_attempts: 2,
      max_ip_attempts: 10,
      ip_address: other,
    });
    expect(await global(anon(ip), args('10.0.0.1'))).toBe(true);
    expect(await global(anon(ip), args('10.0.0.2'))).toBe(true);
    expect(await global(anon(ip), args('10.0.0.3'))).toBe(false);
  });

  it('counts a service-key request at its own address; only SQL without a request names its client’s', async () => {
    await setRateLimitRule(db, 'server_side', { max: 1, maxIp: 1 });
    const args = (ip: string) => ({
      action_type_param: 'server_side',
      max_attempts: 1,
      max_ip_attempts: 1,
      ip_address: ip,
    });
    const ip = freshIp();
    expect(await global(serviceRole(ip), args('2001:db8::1'))).toBe(true);
    expect(await global(serviceRole(ip), args('2001:db8::2'))).toBe(false);
    // The server's own SQL session has no request: the address it names is its client's.
    const serverSql: RequestScope = { role: 'service_role', claims: { role: 'service_role' } };
    expect(await global(serverSql, args('2001:db8::1'))).toBe(true);
    expect(await global(serverSql, args('2001:db8::1'))).toBe(false);
    expect(await global(serverSql, args('2001:db8::2'))).toBe(true);
  });

  it('reads the first x-forwarded-for entry, with or without a port', async () => {
    await setRateLimitRule(db, 'forwarded', { max: 1, maxIp: 1 });
    const scope = (forwarded: string): RequestScope => ({
      role: 'anon',
      claims: { role: 'anon' },
      headers: { 'x-forwarded-for': forwarded },
    });
    const args = { action_type_param: 'forwarded', max_attempts: 1, max_ip_attempts: 1 };
    expect(await global(scope('203.0.113.200, 10.0.0.1'), args)).toBe(true);
    expect(await global(scope('203.0.113.200:51234'), args)).toBe(false);
    expect(await global(scope('[2001:db8::9]:443'), args)).toBe(true);
    expect(await global(scope('2001:db8::9'), args)).toBe(false);
  });

  it('lets a caller it cannot attribute proceed', async () => {
    for (let index = 0; index < 3; index++) {
      expect(await global(headerless, { action_type_param: 'nobody', max_attempts: 1 })).toBe(true);
    }
  });

  it('never hands out the last slot twice, however many attempts arrive at once', async () => {
    const ip = freshIp();
    await setRateLimitRule(db, 'concurrent', { max: 100, maxIp: 3 });
    const args = { action_type_param: 'concurrent', max_attempts: 100, max_ip_attempts: 3 };
    const results = await Promise.all(Array.from({ length: 12 }, () => global(anon(ip), args)));
    expect(results.filter(Boolean)).toHaveLength(3);
  });

  it('keeps a ceiling on what one user or address may record, whatever limits the caller asks for', async () => {
    const ip = freshIp();
    await db.query(
      `insert into private.rate_limit_attempts (action_type, user_id, ip)
       select 'flood_' || (n % 50), null, $1::inet from generate_series(1, 2000) as n`,
      [ip],
    );
    const generous = { action_type_param: 'fresh_action', max_attempts: 10_000, max_ip_attempts: 1_000_000 };
    expect(await global(anon(ip), generous)).toBe(false);
    expect(await progressive(anon(ip), 'fresh_progressive', 10_000)).toMatchObject({
      allowed: false,
      delay_seconds: 3600,
    });
    const flooder = '3a000000-0000-4000-8000-0000000000f1';
    await insertAccount(db, { id: flooder, email: 'flooder@rpc.example' });
    await db.query(
      `insert into private.rate_limit_attempts (action_type, user_id, ip)
       select 'flood', $1::uuid, null from generate_series(1, 1000)`,
      [flooder],
    );
    expect(await global(user(flooder, freshIp()), generous)).toBe(false);
    const booking = await tryAs(
      db,
      user(flooder, freshIp()),
      `insert into public.bookings (full_name, email, product_name, product_category, booking_date, booking_time)
       values ('Flo Oder', 'flooder@rpc.example', 'Thing', 'Other', to_char(now() + interval '3 days', 'YYYY-MM-DD'), '09:00')`,
    );
    expect(booking).toMatchObject({ ok: false, error: { code: 'PT429' } });
    expect(await global(user(ALICE, freshIp()), generous)).toBe(true);
  });

  it.each([
    ['a null action', { action_type_param: null }, '22004'],
    ['a null maximum', { action_type_param: 'x', max_attempts: null }, '22004'],
    ['zero attempts', { action_type_param: 'x', max_attempts: 0 }, '22023'],
    ['a negative window', { action_type_param: 'x', time_window_minutes: -1 }, '22023'],
    ['a window over a day', { action_type_param: 'x', time_window_minutes: 100_000 }, '22023'],
    ['zero address attempts', { action_type_param: 'x', max_ip_attempts: 0 }, '22023'],
    ['a huge address limit', { action_type_param: 'x', max_ip_attempts: 2_000_000 }, '22023'],
    [
      'an address that is not one',
      { action_type_param: 'x', ip_address: 'localhost; drop table x' },
      '22023',
    ],
    ['a network instead of an address', { action_type_param: 'x', ip_address: '10.0.0.0/8' }, '22023'],
    ['markup in the action', { action_type_param: '<script>' }, '22023'],
  ] as const)('refuses %s', async (_name, args, code) => {
    const names = Object.keys(args);
    const result = await tryAs(
      db,
      anon(freshIp()),
      `select public.global_rate_limit_check(${names.map((name, index) => `${name} := $${index + 1}`).join(', ')})`,
      Object.values(args),
    );
    expect(result.ok ? 'answered' : result.error.code).toBe(code);
  });
});

describe('advanced_content_validation(content_text, field_name, min_length, max_length, allow_html)', () => {
  async function validate(args: Record<string, unknown>, scope: RequestScope = anon()) {
    const names = Object.keys(args);
    const [row] = await runAs<{ r: { is_valid: boolean; violations: string[] } }>(
      db,
      scope,
      `select public.advanced_content_validation(${names.map((name, index) => `${name} := $${index + 1}`).join(', ')}) as r`,
      Object.values(args),
    );
    return row?.r;
  }
  const name = (content_text: unknown) =>
    validate({ content_text, field_name: 'full_name', min_length: 2, max_length: 100, allow_html: false });

  it('accepts a good name', async () => {
    expect(await name('Mary-Jane Green')).toEqual({ is_valid: true, violations: [] });
    expect(await name('  Al  ')).toEqual({ is_valid: true, violations: [] });
  });

  it('reports §field-rules’ texts: required, trimmed length, HTML, script markup', async () => {
    expect(await name('')).toEqual({ is_valid: false, violations: ['Full name is required.'] });
    expect(await name(null)).toEqual({ is_valid: false, violations: ['Full name is required.'] });
    expect(await name('   ')).toEqual({ is_valid: false, violations: ['Full name is required.'] });
    expect(await name(' A ')).toEqual({
      is_valid: false,
      violations: ['Full name must be between 2 and 100 characters.'],
    });
    expect(await name('x'.repeat(101))).toEqual({
      is_valid: false,
      violations: ['Full name must be between 2 and 100 characters.'],
    });
    expect(await name('<b>Mary</b>')).toEqual({
      is_valid: false,
      violations: ['Full name must not contain HTML.'],
    });
    expect(await name('<script>alert(1)</script>')).toEqual({
      is_valid: false,
      violations: ['Full name must not contain HTML.', 'Full name must not contain script markup.'],
    });
  });

  it('gives sign-up its message: "Invalid name: " and the violations joined by ", "', async () => {
    const result = await name('<i>');
    expect(`Invalid name: ${result?.violations.join(', ')}`).toBe(
      'Invalid name: Full name must not contain HTML.',
    );
    const both = await validate({
      content_text: '<i>',
      field_name: 'full_name',
      min_length: 5,
      max_length: 100,
    });
    expect(both?.violations).toEqual([
      'Full name must be between 5 and 100 characters.',
      'Full name must not contain HTML.',
    ]);
  });

  it.each([
    'javascript:alert(1)',
    'VBScript:msgbox',
    '<img src=x onload=go()>',
    'a onclick =steal()',
    '< script src=x>',
  ])('flags script markup even where HTML is allowed: %s', async (content) => {
    const result = await validate({
      content_text: content,
      field_name: 'bio',
      max_length: 500,
      allow_html: true,
    });
    expect(result).toEqual({ is_valid: false, violations: ['Bio must not contain script markup.'] });
  });

  it('allows HTML when asked to', async () => {
    expect(
      await validate({ content_text: '<b>bold</b> claim', field_name: 'content', allow_html: true }),
    ).toEqual({
      is_valid: true,
      violations: [],
    });
  });

  it('takes its defaults (field "content", 0 to 1000 characters, no HTML)', async () => {
    expect(await validate({ content_text: '' })).toEqual({ is_valid: true, violations: [] });
    expect(await validate({ content_text: 'y'.repeat(1001) })).toEqual({
      is_valid: false,
      violations: ['Content must be between 0 and 1000 characters.'],
    });
    expect(await validate({ content_text: '<p>', field_name: null })).toEqual({
      is_valid: false,
      violations: ['Content must not contain HTML.'],
    });
  });

  it('copes with a megabyte of text', async () => {
    const result = await validate({
      content_text: 'z'.repeat(1_000_000),
      field_name: 'bio',
      max_length: 500,
    });
    expect(result).toEqual({ is_valid: false, violations: ['Bio must be between 0 and 500 characters.'] });
  });

  it.each([
    ['a negative minimum', { content_text: 'x', min_length: -1 }],
    ['a negative maximum', { content_text: 'x', max_length: -1 }],
    ['a minimum above the maximum', { content_text: 'x', min_length: 10, max_length: 5 }],
    ['a huge maximum', { content_text: 'x', max_length: 2_000_000_000 }],
    ['markup in the field name', { content_text: 'x', field_name: '<img src=x onerror=alert(1)>' }],
    ['an empty field name', { content_text: 'x', field_name: '' }],
  ] as const)('refuses %s with 22023', async (_name, args) => {
    const names = Object.keys(args);
    const result = await tryAs(
      db,
      anon(),
      `select public.advanced_content_validation(${names.map((n, index) => `${n} := $${index + 1}`).join(', ')})`,
      Object.values(args),
    );
    expect(result.ok ? 'answered' : result.error.code).toBe('22023');
  });
});

describe('log_security_event(type, action, category, description, additional_data, risk_level)', () => {
  async function log(scope: RequestScope, args: Record<string, unknown>) {
    const names = Object.keys(args);
    return tryAs<{ id: string | null }>(
      db,
      scope,
      `select public.log_security_event(${names.map((n, index) => `${n} := $${index + 1}`).join(', ')}) as id`,
      Object.values(args),
    );
  }
  async function logCommitted(scope: RequestScope, args: Record<string, unknown>) {
    const names = Object.keys(args);
    const [row] = await runAs<{ id: string | null }>(
      db,
      scope,
      `select public.log_security_event(${names.map((n, index) => `${n} := $${index + 1}`).join(', ')}) as id`,
      Object.values(args),
    );
    return row?.id ?? null;
  }

  it('records the security event fields with the caller’s user id and address', async () => {
    const ip = freshIp();
    const id = await logCommitted(user(ALICE, ip), {
      type: 'suspicious_activity',
      category: 'behaviour',
      action: 'rapid_clicks',
      description: 'More than 100 clicks in 60 s',
      additional_data: JSON.stringify({ userAgent: 'Mozilla/5.0', url: '/news', csrf: 'abcd1234' }),
      risk_level: 'high',
    });
    const { rows } = await db.query('select * from public.security_events where id = $1', [id]);
    expect(rows[0]).toMatchObject({
      type: 'suspicious_activity',
      category: 'behaviour',
      action: 'rapid_clicks',
      description: 'More than 100 clicks in 60 s',
      additional_data: { userAgent: 'Mozilla/5.0', url: '/news', csrf: 'abcd1234' },
      risk_level: 'high',
      user_id: ALICE,
      ip,
    });
  });

  it('takes the failure helper’s shape: type, action, message and severity medium', async () => {
    const id = await logCommitted(user(ALICE, freshIp()), {
      type: 'auth_error',
      action: 'signin',
      description: 'Invalid login credentials',
      risk_level: 'medium',
    });
    const { rows } = await db.query(
      'select category, risk_level, user_id, additional_data from public.security_events where id = $1',
      [id],
    );
    expect(rows).toEqual([
      { category: 'general', risk_level: 'medium', user_id: ALICE, additional_data: {} },
    ]);
  });

  it('lets visitors log only low-risk events: a higher level is kept as their claim', async () => {
    const ip = freshIp();
    const ids: (string | null)[] = [];
    for (const risk_level of ['medium', 'high', 'critical']) {
      ids.push(await logCommitted(anon(ip), { type: 'auth_error', action: 'signin', risk_level }));
    }
    await runAs(
      db,
      anon(ip),
      `insert into public.security_events (type, action, risk_level, additional_data)
       values ('forged', 'alert', 'critical', '{"note": "x"}')`,
    );
    const { rows } = await db.query<{ risk_level: string; additional_data: Record<string, unknown> }>(
      `select risk_level, additional_data from public.security_events
       where id = any($1::uuid[]) or (type = 'forged' and ip = $2::inet) order by created_at`,
      [ids, ip],
    );
    expect(rows).toEqual([
      { risk_level: 'low', additional_data: { claimed_risk_level: 'medium' } },
      { risk_level: 'low', additional_data: { claimed_risk_level: 'high' } },
      { risk_level: 'low', additional_data: { claimed_risk_level: 'critical' } },
      { risk_level: 'low', additional_data: { note: 'x', claimed_risk_level: 'critical' } },
    ]);
  });

  it('keeps the log for admins: members cannot read it, not even their own events', async () => {
    const ip = freshIp();
    await logCommitted(user(BOB, ip), { type: 'auth', action: 'signin' });
    expect(
      await runAs(db, user(BOB), 'select 1 from public.security_events where user_id = $1', [BOB]),
    ).toEqual([]);
    expect(
      (await runAs(db, user(ADMIN), 'select 1 from public.security_events where user_id = $1', [BOB])).length,
    ).toBe(1);
  });

  it('drops events beyond 60 a minute from one address instead of failing', async () => {
    const ip = freshIp();
    const ids: (string | null)[] = [];
    for (let index = 0; index < 61; index++)
      ids.push(await logCommitted(anon(ip), { type: 'flood', action: 'test' }));
    expect(ids.slice(0, 60).every((id) => typeof id === 'string')).toBe(true);
    expect(ids[60]).toBeNull();
    const { rows } = await db.query(`select count(*)::int as n from public.security_events where ip = $1`, [
      ip,
    ]);
    expect(rows).toEqual([{ n: 60 }]);
    // Direct inserts from that address are refused outright.
    const direct = await tryAs(
      db,
      anon(ip),
      `insert into public.security_events (type, action) values ('flood', 'direct')`,
    );
    expect(direct).toMatchObject({ ok: false, error: { code: 'PT429' } });
    // The server's own logging is not limited.
    expect(await logCommitted(serviceRole(ip), { type: 'flood', action: 'server' })).toEqual(
      expect.any(String),
    );
  });

  it.each([
    ['a null type', { type: null, action: 'x' }, '22004'],
    ['a null action', { type: 'x', action: null }, '22004'],
    ['an empty type', { type: ' ', action: 'x' }, '22023'],
    ['a 101-character action', { type: 'x', action: 'a'.repeat(101) }, '22023'],
    ['an unknown risk level', { type: 'x', action: 'x', risk_level: 'apocalyptic' }, '22023'],
    ['additional data that is a list', { type: 'x', action: 'x', additional_data: '[1,2]' }, '22023'],
    [
      'additional data over 8 KB',
      { type: 'x', action: 'x', additional_data: JSON.stringify({ a: 'b'.repeat(9000) }) },
      '22023',
    ],
    ['a 2001-character description', { type: 'x', action: 'x', description: 'd'.repeat(2001) }, '22023'],
  ] as const)('refuses %s', async (_name, args, code) => {
    const result = await log(anon(freshIp()), args);
    expect(result.ok ? 'answered' : result.error.code).toBe(code);
  });
});

describe('private.requires_aal2() (decision 096)', () => {
  const MFA = '3a000000-0000-4000-8000-0000000000a2';
  const withAal = (id: string, aal: string): RequestScope => ({
    ...user(id, freshIp()),
    claims: { sub: id, role: 'authenticated', aud: 'authenticated', aal },
  });
  const meets = async (scope: RequestScope) =>
    (await runAs<{ ok: boolean }>(db, scope, 'select private.requires_aal2() as ok'))[0]?.ok;

  beforeAll(async () => {
    await insertAccount(db, { id: MFA, email: 'mfa@rpc.example' });
    await db.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
       values (gen_random_uuid(), $1, 'app', 'totp', 'verified', now(), now())`,
      [MFA],
    );
    // A policy as the helper's comment shows it: with MFA on, a password alone does not do this.
    await db.exec(`
      create table public.aal2_probe (id serial primary key, owner uuid not null default auth.uid());
      alter table public.aal2_probe enable row level security;
      create policy "aal2_probe: own" on public.aal2_probe for all to authenticated
        using (owner = (select auth.uid())) with check (owner = (select auth.uid()));
      create policy "aal2_probe: MFA members need aal2" on public.aal2_probe as restrictive
        for all to authenticated using ((select private.requires_aal2())) with check ((select private.requires_aal2()));
      grant select, insert on public.aal2_probe to authenticated;
      grant usage on sequence public.aal2_probe_id_seq to authenticated;`);
  });
  afterAll(() => db.exec('drop table public.aal2_probe'));

  it('is met by an aal2 session, or by any session of an account without a verified factor', async () => {
    expect(await meets(withAal(MFA, 'aal2'))).toBe(true);
    expect(await meets(withAal(MFA, 'aal1'))).toBe(false);
    expect(await meets(user(MFA))).toBe(false);
    expect(await meets(withAal(ALICE, 'aal1'))).toBe(true);
    expect(await meets(anon(freshIp()))).toBe(false);
  });

  it('keeps a password-only session of an MFA member out of a table guarded by it', async () => {
    const insert = 'insert into public.aal2_probe default values';
    expect(await tryAs(db, withAal(MFA, 'aal1'), insert)).toMatchObject({
      ok: false,
      error: { code: '42501' },
    });
    expect(await tryAs(db, withAal(MFA, 'aal2'), insert)).toMatchObject({ ok: true });
    expect(await tryAs(db, withAal(ALICE, 'aal1'), insert)).toMatchObject({ ok: true });
  });
});

describe('who may call what', () => {
  it('lets visitors and members call the remote procedures and the access helpers', async () => {
    for (const scope of [anon(freshIp()), user(ALICE, freshIp())]) {
      const result = await tryAs(
        db,
        scope,
        `select public.progressive_rate_limit_check('who', 5, 60) is not null as a,
                public.global_rate_limit_check('who', 5, 60) as b,
                public.advanced_content_validation('x', 'f', 0, 10, false) is not null as c,
                public.log_security_event('who', 'called') is not null as d,
                public.has_role('admin') is not null as e,
                public.has_scammer_access() is not null as f`,
      );
      expect(result).toMatchObject({
        ok: true,
        value: { rows: [{ a: true, b: true, c: true, d: true, e: true, f: true }] },
      });
    }
  });

  it.each([
    ['the rate-limit table', 'select * from private.rate_limit_attempts'],
    ['the penalties table', 'select * from private.rate_limit_penalties'],
    ['the product settings', 'select * from private.app_settings'],
    ['changing the trial length', `update private.app_settings set trial_length = interval '10 years'`],
    ['pruning the rate limits', 'select private.prune_rate_limits()'],
    ['recording an attempt by hand', `insert into private.rate_limit_attempts (action_type) values ('x')`],
    ['creating a profile for someone', 'select private.handle_new_user()'],
  ])('keeps %s out of reach of the API roles', async (_name, sql) => {
    for (const scope of [anon(freshIp()), user(ALICE, freshIp())]) {
      const result = await tryAs(db, scope, sql);
      expect(result.ok ? 'answered' : result.error.code).toBe('42501');
    }
  });
});
