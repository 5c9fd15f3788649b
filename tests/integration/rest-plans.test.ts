// @databases: both — EXPLAIN output comes from the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '#tests/support/clients.ts';
import { installRestFixture, restHttp } from '#tests/support/rest-fixture.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

/**
 * `Accept: application/vnd.pgrst.plan` with PGRST_DB_PLAN_ENABLED=true (decision 153), following
 * PostgREST 13's PlanSpec: the EXPLAIN of the statement the request would run, in JSON or text, with
 * its options, for reads, function calls and writes.
 */
let server: TestServer;
let http: ReturnType<typeof restHttp>;
beforeAll(async () => {
  server = await startTestServer({ PGRST_DB_PLAN_ENABLED: 'true' });
  await installRestFixture(server);
  http = restHttp(server);
});
afterAll(() => server?.close());

type JsonPlan = { Plan: Record<string, unknown>; 'Execution Time'?: number; Settings?: unknown }[];

describe('plans of reads', () => {
  it('answers the JSON plan with its total cost and the Content-Type PostgREST gives it', async () => {
    const reply = await http('GET', '/films?id=in.(1,2,3)', {
      headers: { accept: 'application/vnd.pgrst.plan+json' },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="application/json"; charset=utf-8',
    );
    const plan = reply.body as JsonPlan;
    expect(typeof plan[0]?.Plan['Total Cost']).toBe('number');
    expect(plan[0]?.['Execution Time']).toBeUndefined();
  });

  it('passes analyze, verbose, buffers and settings to EXPLAIN and names them back', async () => {
    const reply = await http('GET', '/films?select=title,directors(last_name)', {
      headers: { accept: 'application/vnd.pgrst.plan+json; options=analyze|verbose|buffers|settings' },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="application/json"; options=analyze|verbose|settings|buffers; charset=utf-8',
    );
    const plan = reply.body as JsonPlan;
    expect(typeof plan[0]?.['Execution Time']).toBe('number');
    expect(plan[0]?.Plan.Output).toBeDefined();
    expect(reply.text).toContain('Shared Hit Blocks');
  });

  it('answers text plans, and plans for another media type', async () => {
    for (const accept of ['application/vnd.pgrst.plan+text', 'application/vnd.pgrst.plan']) {
      const reply = await http('GET', '/films?select=id', { headers: { accept } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('content-type')).toBe(
        'application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8',
      );
      expect(reply.text).toMatch(/cost=\d/);
    }
    const csv = await http('GET', '/films?select=id', {
      headers: { accept: 'application/vnd.pgrst.plan+json; for="text/csv"' },
    });
    expect(csv.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="text/csv"; charset=utf-8',
    );
  });

  it('plans function calls', async () => {
    const reply = await http('GET', '/rpc/films_by_year?min_year=1895', {
      headers: { accept: 'application/vnd.pgrst.plan+json' },
    });
    expect(reply.status, reply.text).toBe(200);
    // The SQL function is inlined: its plan reads the films table itself.
    expect(JSON.stringify(reply.body)).toContain('"Relation Name":"films"');
  });
});

describe('plans of writes', () => {
  const count = async () =>
    Number(
      (await server.db.query<{ n: number }>('select count(*)::int as n from public.drop_box')).rows[0]?.n,
    );

  it('plans an insert without running it; with analyze it runs, as EXPLAIN ANALYZE does upstream', async () => {
    const before = await count();
    const planned = await http('POST', '/drop_box', {
      headers: { accept: 'application/vnd.pgrst.plan+json', 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'planned only' }),
    });
    expect(planned.status, planned.text).toBe(200);
    expect(JSON.stringify(planned.body)).toContain('Insert');
    expect(await count()).toBe(before);

    const analyzed = await http('POST', '/drop_box', {
      headers: {
        accept: 'application/vnd.pgrst.plan+text; options=analyze',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ message: 'planned and run' }),
    });
    expect(analyzed.status, analyzed.text).toBe(200);
    expect(analyzed.text).toContain('actual time=');
    expect(await count()).toBe(before + 1);
  });
});

describe('through supabase-js', () => {
  it('explain() returns the plan in both formats', async () => {
    const client = anonClient(server);
    const json = await client.from('films').select('id').explain({ format: 'json' });
    expect(json.error).toBeNull();
    expect(typeof (json.data as unknown as JsonPlan)[0]?.Plan['Total Cost']).toBe('number');
    const text = await client.from('films').select('id').eq('id', 1).explain({ analyze: true });
    expect(text.error).toBeNull();
    expect(String(text.data)).toContain('actual time=');
  });
});
