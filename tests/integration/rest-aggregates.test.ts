// @databases: both — the data API's generated SQL.
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient as createOldest } from 'supabase-js-oldest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
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

  it('answers aggregates in to-many spreads as not implemented (PGRST127), nested in a to-one spread too', async () => {
    for (const path of [
      `/directors?select=${select('id,...films(year.sum())')}`,
      `/directors?select=${select('id,...films(...technical_specs(runtime.sum()))')}`,
    ]) {
      const reply = await get(path);
      expect(reply.status, path).toBe(400);
      expect(reply.body).toMatchObject({
        code: 'PGRST127',
        message: 'Feature not implemented',
        details: 'Aggregates are not implemented for one-to-many or many-to-many spreads.',
      });
    }
  });
});

/**
 * Aggregates in to-one spreads are hoisted to the parent (PostgREST 13's AggregateFunctionsSpec, "to-one
 * spread relationships"): the parent aggregates the spread's values over its rows and groups by what
 * else it selects, the spread's other columns included. Roles: actor 1 in films 3 (1896) and 4 (1902),
 * actors 2 and 3 in film 4; every film of a role is Méliès's (director 3).
 */
describe('aggregates in to-one spreads, hoisted to the parent', () => {
  it('aggregates a spread column over the parent rows when only aggregates are selected', async () => {
    expect(await rows(`/films?select=${select('...directors(total:id.sum())')}`)).toEqual([{ total: 9 }]);
    expect(await rows(`/films?select=${select('...directors(n:id.count(),max:id.max()::text)')}`)).toEqual([
      { n: 4, max: '3' },
    ]);
  });

  it("groups by another spread's columns, and orders by them", async () => {
    expect(
      await rows(`/roles?select=${select('...actors(id),...films(total:year.sum())')}&order=actors(id)`),
    ).toEqual([
      { id: 1, total: 3798 },
      { id: 2, total: 1902 },
      { id: 3, total: 1902 },
    ]);
    expect(
      await rows(`/roles?select=${select('...actors(id),...films(total:year.sum())')}&order=actors(id).desc`),
    ).toEqual([
      { id: 3, total: 1902 },
      { id: 2, total: 1902 },
      { id: 1, total: 3798 },
    ]);
  });

  it('hoists from nested spreads, beside the parent’s own columns and a regular embed', async () => {
    expect(
      await rows(`/roles?select=${select('actor_id,...films(...directors(n:id.count()))')}&order=actor_id`),
    ).toEqual([
      { actor_id: 1, n: 2 },
      { actor_id: 2, n: 1 },
      { actor_id: 3, n: 1 },
    ]);
    expect(await rows(`/roles?select=${select('...films(directors(last_name),total:year.sum())')}`)).toEqual([
      { directors: { last_name: 'Méliès' }, total: 7602 },
    ]);
  });

  it('counts the parent rows that have the spread with count()', async () => {
    expect(
      await rows(`/films?select=${select('language,...technical_specs(n:count())')}&order=language`),
    ).toEqual([
      { language: 'english', n: 0 },
      { language: 'french', n: 2 },
      { language: null, n: 0 },
    ]);
  });

  it('groups inside a regular embed, one list per parent', async () => {
    expect(await rows(`/actors?select=${select('id,roles(...films(total:year.sum()))')}&order=id`)).toEqual([
      { id: 1, roles: [{ total: 3798 }] },
      { id: 2, roles: [{ total: 1902 }] },
      { id: 3, roles: [{ total: 1902 }] },
    ]);
    // Only aggregates: one row per parent, 0 where it has none (as an embed's own count()); with a group
    // term, no row there.
    expect(
      await rows(`/films?select=${select('id,roles(...actors(n:id.count()))')}&id=in.(1,4)&order=id`),
    ).toEqual([
      { id: 1, roles: [{ n: 0 }] },
      { id: 4, roles: [{ n: 3 }] },
    ]);
    expect(
      await rows(
        `/films?select=${select('id,roles(character,...actors(n:id.count()))')}&id=in.(1,3)&order=id`,
      ),
    ).toEqual([
      { id: 1, roles: [] },
      { id: 3, roles: [{ character: 'Phantom', n: 1 }] },
    ]);
  });

  it('reads through both supabase-js versions as postgrest-js asks for it', async () => {
    const oldest = createOldest(server.url, server.anonKey, {
      auth: { persistSession: false },
      realtime: { transport: WebSocket as never },
    });
    for (const client of [oldest, anonClient(server)] as SupabaseClient[]) {
      const { data, error } = await client
        .from('roles')
        .select('...actors(id), ...films(total:year.sum())')
        .order('actors(id)');
      expect(error).toBeNull();
      expect(data).toEqual([
        { id: 1, total: 3798 },
        { id: 2, total: 1902 },
        { id: 3, total: 1902 },
      ]);
      // The backwards-compatible bare count, in an embed (decision 241).
      const counted = await client.from('directors').select('last_name, films(count)').eq('id', 3).single();
      expect(counted.error).toBeNull();
      expect(counted.data).toEqual({ last_name: 'Méliès', films: [{ count: 2 }] });
    }
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
