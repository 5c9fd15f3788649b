// @databases: both — the data API's generated SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '#tests/support/clients.ts';
import { installRestFixture, type RestReply, restHttp } from '#tests/support/rest-fixture.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

/**
 * Aggregates with PGRST_DB_AGGREGATES_ENABLED=true (decision 136), following PostgREST 13's
 * AggregateFunctionsSpec over the films fixture: years 1895, 1894, 1896, 1902 and one null; directors
 * 1, 2, 3, 3 and none; languages french ×3, english, none.
 */
let server: TestServer;
let http: ReturnType<typeof restHttp>;
beforeAll(async () => {
  server = await startTestServer({ PGRST_DB_AGGREGATES_ENABLED: 'true' });
  await installRestFixture(server);
  http = restHttp(server);
});
afterAll(() => server?.close());

const get = async (path: string): Promise<RestReply> => http('GET', path, {});
const rows = async (path: string): Promise<unknown> => {
  const reply = await get(path);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
};
const select = (value: string) => encodeURIComponent(value);

describe('aggregates on the top level', () => {
  it('counts rows with count(), under an alias, and cast', async () => {
    expect(await rows(`/films?select=${select('count()')}`)).toEqual([{ count: 5 }]);
    expect(await rows(`/films?select=${select('cnt:count()')}`)).toEqual([{ cnt: 5 }]);
    expect(await rows(`/films?select=${select('count()::text')}`)).toEqual([{ count: '5' }]);
  });

  it('groups by every other selected field', async () => {
    expect(await rows(`/films?select=${select('c:count(),language')}&order=language.asc`)).toEqual([
      { c: 1, language: 'english' },
      { c: 3, language: 'french' },
      { c: 1, language: null },
    ]);
    expect(
      await rows(`/films?select=${select('total:year.sum()::text,director_id')}&order=director_id.asc`),
    ).toEqual([
      { total: '1895', director_id: 1 },
      { total: '1894', director_id: 2 },
      { total: '3798', director_id: 3 },
      { total: null, director_id: null },
    ]);
  });

  it('applies sum, avg, min, max and count to columns, JSON paths and cast inputs', async () => {
    expect(await rows(`/films?select=${select('year.sum()')}`)).toEqual([{ sum: 7587 }]);
    expect(await rows(`/films?select=${select('year.max(),year.min(),year.count()')}`)).toEqual([
      { max: 1902, min: 1894, count: 4 },
    ]);
    expect(await rows(`/films?select=${select('rating.avg()')}`)).toEqual([{ avg: 7.1 }]);
    expect(await rows(`/films?select=${select('s:meta->>minutes::int.sum()::text')}`)).toEqual([{ s: '18' }]);
  });

  it('aggregates only the rows the filters keep, and works on functions returning rows', async () => {
    expect(await rows(`/films?select=${select('year.sum()')}&language=eq.french`)).toEqual([{ sum: 5693 }]);
    expect(await rows(`/rpc/films_by_year?select=${select('id.max()')}&min_year=1895`)).toEqual([{ max: 4 }]);
  });

  it('groups by a to-one embed as well', async () => {
    expect(
      await rows(
        `/films?select=${select('director_id,total:year.sum(),directors(last_name)')}&order=director_id`,
      ),
    ).toEqual([
      { director_id: 1, total: 1895, directors: { last_name: 'Lumière' } },
      { director_id: 2, total: 1894, directors: { last_name: 'Dickson' } },
      { director_id: 3, total: 3798, directors: { last_name: 'Méliès' } },
      { director_id: null, total: null, directors: null },
    ]);
  });
});

describe('aggregates in embeds', () => {
  it("aggregate each parent's rows: one row per parent, nulls and zero where it has none", async () => {
    expect(await rows(`/directors?select=${select('last_name,films(year.max())')}&order=id`)).toEqual([
      { last_name: 'Lumière', films: [{ max: 1895 }] },
      { last_name: 'Dickson', films: [{ max: 1894 }] },
      { last_name: 'Méliès', films: [{ max: 1902 }] },
      { last_name: 'Guy', films: [{ max: null }] },
    ]);
    expect(await rows(`/directors?select=${select('last_name,films(count())')}&order=id`)).toEqual([
      { last_name: 'Lumière', films: [{ count: 1 }] },
      { last_name: 'Dickson', films: [{ count: 1 }] },
      { last_name: 'Méliès', films: [{ count: 2 }] },
      { last_name: 'Guy', films: [{ count: 0 }] },
    ]);
  });

  it('answers aggregates in spreads as not implemented (PGRST127), naming the case', async () => {
    const toOne = await get(`/films?select=${select('id,...directors(last_name.max())')}`);
    expect(toOne.status).toBe(400);
    expect(toOne.body).toMatchObject({ code: 'PGRST127', message: 'Feature not implemented' });
    const toMany = await get(`/directors?select=${select('id,...films(year.sum())')}`);
    expect(toMany.status).toBe(400);
    expect(toMany.body).toMatchObject({
      code: 'PGRST127',
      details: 'Aggregates are not implemented for one-to-many or many-to-many spreads.',
    });
  });
});

describe('through supabase-js', () => {
  it('reads grouped counts and embedded sums as postgrest-js asks for them', async () => {
    const client = anonClient(server);
    const grouped = await client.from('films').select('language, films:count()').order('language');
    expect(grouped.error).toBeNull();
    expect(grouped.data).toEqual([
      { language: 'english', films: 1 },
      { language: 'french', films: 3 },
      { language: null, films: 1 },
    ]);
    const embedded = await client
      .from('directors')
      .select('last_name, films(year.sum())')
      .eq('id', 3)
      .single();
    expect(embedded.error).toBeNull();
    expect(embedded.data).toEqual({ last_name: 'Méliès', films: [{ sum: 3798 }] });
  });

  it('refuses what cannot be an aggregate with the usual errors', async () => {
    expect((await get(`/films?select=${select('year.total()')}`)).body).toMatchObject({ code: 'PGRST100' });
    expect((await get(`/films?select=${select('nope.sum()')}`)).body).toMatchObject({ code: '42703' });
    expect((await get(`/films?select=${select('title.sum()')}`)).status).toBe(404);
  });
});
