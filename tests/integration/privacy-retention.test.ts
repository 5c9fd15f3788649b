// @databases: both — the warnings, the due accounts and the pruning are SQL over auth.* and public.*.
/**
 * Issue 33 parts 2 and 3: what the privacy policy promises about time is kept.
 * - "Delete my account when inactive" (decision 192): a leased daily job warns a member 14 days before
 *   their chosen period ends (bell and mail), then erases the account through the self-service
 *   deletion's path; a member who comes back in between keeps it. The clock is moved by moving the
 *   member's timestamps back, as time passing would.
 * - Security logs older than 12 months are deleted by a leased daily job (decision 194).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFunctions, type FunctionsDeps } from '#server/functions/functions.ts';
import { JOBS } from '#server/functions/jobs.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser, signIn } from '#tests/support/users.ts';

let server: TestServer;
let deps: FunctionsDeps;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  // The functions as the server builds them, so a test runs the job's work when it chooses (the
  // server's own run at start found nobody to warn).
  deps = await createFunctions(server.server.ctx);
});
afterAll(async () => {
  await deps?.close();
  await server?.close();
});

/** Time passes for one member: everything the database knows of them moves `days` into the past. */
async function age(userId: string, days: number): Promise<void> {
  const by = `make_interval(days => ${Number(days)})`;
  await server.db.query(
    `update auth.users set created_at = created_at - ${by},
       last_sign_in_at = last_sign_in_at - ${by} where id = $1`,
    [userId],
  );
  await server.db.query(
    `update auth.sessions set created_at = created_at - ${by}, updated_at = updated_at - ${by}
     where user_id = $1`,
    [userId],
  );
  await server.db.query(
    `update private.inactivity_warnings set warned_at = warned_at - ${by},
       last_active_at = last_active_at - ${by} where user_id = $1`,
    [userId],
  );
}

async function deleteWhenInactive(member: SignedInUser, months: number | null): Promise<void> {
  const { error } = await member.client.from('privacy_settings').upsert(
    {
      user_id: member.id,
      auto_delete_inactive: months !== null,
      ...(months !== null ? { inactive_period_months: months } : {}),
    },
    { onConflict: 'user_id' },
  );
  expect(error).toBeNull();
}

async function exists(userId: string): Promise<boolean> {
  const { rows } = await server.db.query('select 1 from auth.users where id = $1', [userId]);
  return rows.length === 1;
}

async function warningsOf(userId: string) {
  const { rows } = await server.db.query<{ kind: string; title: string; message: string; link: string }>(
    `select kind, title, message, link from public.notifications
     where user_id = $1 and kind = 'account.inactive' order by created_at`,
    [userId],
  );
  return rows;
}

async function mailsTo(email: string) {
  const { rows } = await server.db.query<{ type: string; subject: string; body: string }>(
    `select type, subject, body from private.mail_queue where to_email = $1 and type = 'account_inactive'`,
    [email],
  );
  return rows;
}

describe('inactivity deletion (decision 192)', () => {
  it('is a daily job under a lease', () => {
    const job = JOBS.find((candidate) => candidate.name === 'functions: inactive accounts');
    expect(job).toMatchObject({ everyMs: 24 * 60 * 60 * 1000, lease: { name: 'inactive-accounts' } });
  });

  it('warns a member 14 days before their period ends, once, then erases the account', async () => {
    const member = await signedInUser(server);
    await deleteWhenInactive(member, 12);
    await deps.retention.eraseInactive();
    expect(await warningsOf(member.id)).toEqual([]);

    // Twelve months less ten days without activity: within the last 14 days of the period.
    await age(member.id, 355);
    const first = await deps.retention.eraseInactive();
    expect(first.warned).toBeGreaterThanOrEqual(1);
    const warnings = await warningsOf(member.id);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      title: 'Your account will be deleted soon',
      link: '/profile?tab=privacy',
    });
    expect(warnings[0]?.message).toMatch(
      /after 12 months without activity\. Sign in before [A-Z][a-z]+ \d{1,2}, \d{4}/,
    );
    const mails = await mailsTo(member.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Your HighGrade account will be deleted soon');
    expect(await exists(member.id)).toBe(true);

    // A day later: no second warning, and not yet erased (the period has not ended).
    await age(member.id, 1);
    await deps.retention.eraseInactive();
    expect(await warningsOf(member.id)).toHaveLength(1);
    expect(await exists(member.id)).toBe(true);

    // Past the period, but the warning is only 13 days old: still kept.
    await age(member.id, 12);
    await deps.retention.eraseInactive();
    expect(await exists(member.id)).toBe(true);

    // Fourteen days after the warning: erased, through the self-service deletion's path.
    await age(member.id, 1);
    const run = await deps.retention.eraseInactive();
    expect(run.erased).toBeGreaterThanOrEqual(1);
    expect(await exists(member.id)).toBe(false);
    const { rows } = await server.db.query(
      `select (select count(*)::int from public.profiles where user_id = $1) as profiles,
              (select count(*)::int from public.privacy_settings where user_id = $1) as settings,
              (select count(*)::int from private.inactivity_warnings where user_id = $1) as warnings`,
      [member.id],
    );
    expect(rows[0]).toEqual({ profiles: 0, settings: 0, warnings: 0 });
    // Their session is worth nothing now.
    const after = await member.client.from('profiles').select('user_id');
    expect(after.data ?? []).toEqual([]);
  });

  it('keeps the account of a member who comes back after the warning', async () => {
    const member = await signedInUser(server);
    await deleteWhenInactive(member, 24);
    await age(member.id, 2 * 365 - 5);
    await deps.retention.eraseInactive();
    expect(await warningsOf(member.id)).toHaveLength(1);

    // They sign in again, and three weeks pass.
    await signIn(server, member);
    await age(member.id, 21);
    await deps.retention.eraseInactive();
    expect(await exists(member.id)).toBe(true);
    const { rows } = await server.db.query('select 1 from private.inactivity_warnings where user_id = $1', [
      member.id,
    ]);
    expect(rows).toEqual([]);

    // A new stretch of inactivity gets a new warning before anything happens.
    await age(member.id, 700);
    await deps.retention.eraseInactive();
    expect(await warningsOf(member.id)).toHaveLength(2);
    expect(await exists(member.id)).toBe(true);
  });

  it('leaves alone members who did not ask for it, or whose period is far from over', async () => {
    const never = await signedInUser(server);
    const later = await signedInUser(server);
    await deleteWhenInactive(later, 60);
    await age(never.id, 6 * 365);
    await age(later.id, 365);
    await deps.retention.eraseInactive();
    await age(never.id, 30);
    await age(later.id, 30);
    await deps.retention.eraseInactive();
    for (const member of [never, later]) {
      expect(await exists(member.id)).toBe(true);
      expect(await warningsOf(member.id)).toEqual([]);
    }
  });

  it('forgets the warning of a member who switches the setting off', async () => {
    const member = await signedInUser(server);
    await deleteWhenInactive(member, 12);
    await age(member.id, 360);
    await deps.retention.eraseInactive();
    expect(await warningsOf(member.id)).toHaveLength(1);
    await server.db.query(
      'update public.privacy_settings set auto_delete_inactive = false where user_id = $1',
      [member.id],
    );
    await age(member.id, 30);
    await deps.retention.eraseInactive();
    expect(await exists(member.id)).toBe(true);
    const { rows } = await server.db.query('select 1 from private.inactivity_warnings where user_id = $1', [
      member.id,
    ]);
    expect(rows).toEqual([]);
  });
});

describe('security log retention (decision 194)', () => {
  it('is a daily job under a lease', () => {
    const job = JOBS.find((candidate) => candidate.name === 'functions: security log retention');
    expect(job).toMatchObject({ everyMs: 24 * 60 * 60 * 1000, lease: { name: 'security-log-retention' } });
  });

  it('deletes security events and auth log entries older than 12 months, and keeps younger ones', async () => {
    const { rows: events } = await server.db.query<{ id: string; age: string }>(
      `insert into public.security_events (type, action, created_at, ip)
       select 'retention-test', a.label, now() - a.age, '192.0.2.77'
       from (values ('old', interval '13 months'), ('young', interval '11 months')) as a(label, age)
       returning id, action as age`,
    );
    expect(events).toHaveLength(2);
    await server.db.query(
      `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), '{"action":"retention_old"}', now() - interval '13 months', '192.0.2.77'),
              ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), '{"action":"retention_young"}', now() - interval '11 months', '192.0.2.77')`,
    );

    const removed = await deps.retention.pruneSecurityLogs();
    expect(removed.events).toBeGreaterThanOrEqual(1);
    expect(removed.auth).toBeGreaterThanOrEqual(1);

    const { rows: left } = await server.db.query<{ action: string }>(
      `select action from public.security_events where type = 'retention-test' order by action`,
    );
    expect(left).toEqual([{ action: 'young' }]);
    const { rows: auth } = await server.db.query<{ action: string }>(
      `select payload ->> 'action' as action from auth.audit_log_entries
       where payload ->> 'action' like 'retention_%' order by 1`,
    );
    expect(auth).toEqual([{ action: 'retention_young' }]);
  });
});
