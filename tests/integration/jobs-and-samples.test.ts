// @databases: both — leases are rows taken under concurrent transactions; samples are SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimLease, readLease, releaseLease } from '#server/db/leases.ts';
import { applySamples } from '#server/db/samples.ts';
import { type Job, runOnce } from '#server/jobs.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** A job whose runs can be held open, counting how many run at once. */
function gatedJob(name: string, everyMs: number) {
  const state = { runs: 0, running: 0, most: 0, release: () => {} };
  let gate = Promise.resolve();
  const job: Job<undefined> = {
    name,
    everyMs,
    lease: { name, ttlMs: 60_000 },
    async run() {
      state.runs += 1;
      state.running += 1;
      state.most = Math.max(state.most, state.running);
      await gate;
      state.running -= 1;
    },
  };
  const hold = () => {
    gate = new Promise((resolve) => {
      state.release = resolve;
    });
  };
  return { job, state, hold };
}

describe('leased jobs (decision 106)', () => {
  it('runs in one process at a time: a second holder is refused while the first runs', async () => {
    const { job, state, hold } = gatedJob('test: one at a time', 0);
    hold();
    const first = runOnce(job, undefined, { db: server.db, holder: 'process-a' });
    await expect.poll(() => state.running).toBe(1);
    expect(await runOnce(job, undefined, { db: server.db, holder: 'process-b' })).toBe(false);
    state.release();
    expect(await first).toBe(true);
    // Work started by hand (every 0 ms) may run again as soon as the last run has finished.
    expect(await runOnce(job, undefined, { db: server.db, holder: 'process-b' })).toBe(true);
    expect(state).toMatchObject({ runs: 2, most: 1 });
    expect(await readLease(server.db, 'test: one at a time')).toMatchObject({ holder: 'process-b' });
  });

  it('runs once per interval across processes', async () => {
    const { job, state } = gatedJob('test: once per interval', 3_600_000);
    expect(await runOnce(job, undefined, { db: server.db, holder: 'process-a' })).toBe(true);
    expect(await runOnce(job, undefined, { db: server.db, holder: 'process-b' })).toBe(false);
    expect(await runOnce(job, undefined, { db: server.db, holder: 'process-a' })).toBe(false);
    expect(state.runs).toBe(1);
  });

  it('lets exactly one of many simultaneous claimants win', async () => {
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) => claimLease(server.db, 'test: race', `process-${i}`, 1000, 60_000)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('hands the lease of a process that died to another once it expires', async () => {
    expect(await claimLease(server.db, 'test: died', 'dead-process', 0, 1)).toBe(true);
    // The dead process never releases; its one-millisecond lease expires.
    await expect
      .poll(
        async () =>
          (
            await server.db.query(
              `select expires_at <= now() as over from jobs.leases where name = 'test: died'`,
            )
          ).rows[0]?.over,
      )
      .toBe(true);
    expect(await claimLease(server.db, 'test: died', 'process-b', 0, 60_000)).toBe(true);
    // The late release of the dead process does not end the new holder's run.
    await releaseLease(server.db, 'test: died', 'dead-process');
    expect(await readLease(server.db, 'test: died')).toMatchObject({ holder: 'process-b', finishedAt: null });
  });

  it('gives no API role access to the leases', async () => {
    const response = await fetch(`${server.url}/rest/v1/leases`, {
      headers: {
        apikey: server.serviceRoleKey,
        authorization: `Bearer ${server.serviceRoleKey}`,
        'accept-profile': 'jobs',
      },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    const { rows } = await server.db.query<{ granted: boolean }>(
      `select bool_or(has_schema_privilege(r, 'jobs', 'usage')) as granted
         from unnest(array['anon', 'authenticated', 'service_role']) as r`,
    );
    expect(rows[0]?.granted).toBe(false);
  });
});

describe('sample content (decision 105)', () => {
  it('is loaded once when several processes start at the same moment', async () => {
    // What two server processes starting together on one database do (a crash at start, before).
    await applySamples(server.db, false);
    await Promise.all([
      applySamples(server.db, true),
      applySamples(server.db, true),
      applySamples(server.db, true),
    ]);
    const { rows } = await server.db.query<{ url_key: string; n: number }>(
      'select url_key, count(*)::int as n from public.news_articles where is_sample group by url_key having count(*) > 1',
    );
    expect(rows).toEqual([]);
    const { rows: loaded } = await server.db.query<{ n: number }>(
      'select count(*)::int as n from public.news_articles where is_sample',
    );
    expect(loaded[0]?.n).toBeGreaterThan(0);
    await applySamples(server.db, false);
  });

  it('calls every private.*_samples(load boolean) with the setting', async () => {
    await server.db.exec(`
      create table private.sample_calls (fn text, load boolean);
      create function private.zz_first_samples(load boolean) returns void language sql
        as $$ insert into private.sample_calls values ('first', load) $$;
      create function private.zz_second_samples(load boolean) returns void language sql
        as $$ insert into private.sample_calls values ('second', load) $$;
      create function private.zz_other_samples(n integer) returns void language sql as $$ select $$;
    `);
    try {
      const called = await applySamples(server.db, true);
      expect(called).toEqual(
        expect.arrayContaining(['private.zz_first_samples', 'private.zz_second_samples']),
      );
      expect(called).not.toContain('private.zz_other_samples');
      await applySamples(server.db, false);
      const { rows } = await server.db.query(
        'select fn, load from private.sample_calls order by load desc, fn',
      );
      expect(rows).toEqual([
        { fn: 'first', load: true },
        { fn: 'second', load: true },
        { fn: 'first', load: false },
        { fn: 'second', load: false },
      ]);
    } finally {
      await server.db.exec(`
        drop function private.zz_first_samples(boolean);
        drop function private.zz_second_samples(boolean);
        drop function private.zz_other_samples(integer);
        drop table private.sample_calls;
      `);
    }
  });
});
