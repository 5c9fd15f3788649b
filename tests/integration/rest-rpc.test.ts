// @databases: both — function calls and their generated SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installRestFixture, type RestReply, restHttp } from '#tests/support/rest-fixture.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

/** /rest/v1/rpc/<fn> over raw HTTP: every return shape, both methods, arguments, access mode, errors. */

let server: TestServer;
let http: ReturnType<typeof restHttp>;
beforeAll(async () => {
  server = await startTestServer();
  await installRestFixture(server);
  http = restHttp(server);
});
afterAll(() => server?.close());

const expectError = (reply: RestReply, status: number, code: string) => {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body).toMatchObject({ code });
};

describe('return shapes', () => {
  it('a scalar is the bare JSON value (GET and POST)', async () => {
    const get = await http('GET', '/rpc/add_them?a=40&b=2');
    expect(get.status).toBe(200);
    expect(get.text).toBe('42');
    expect(get.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const post = await http('POST', '/rpc/add_them', { body: { a: 1, b: '2' } });
    expect(post.text).toBe('3');
    expect((await http('POST', '/rpc/get_film', { body: { fid: 999 } })).text).toBe(
      '{"id":null,"director_id":null,"title":null,"year":null,"rating":null,"language":null,"tags":null,"meta":null,"released":null,"search":null}',
    );
  });

  it('void answers 204 without a body or content type', async () => {
    for (const method of ['GET', 'POST']) {
      const reply = await http(method, '/rpc/do_nothing');
      expect(reply.status).toBe(204);
      expect(reply.text).toBe('');
      expect(reply.headers.get('content-type')).toBeNull();
    }
  });

  it('a set of scalars is an array, paged by limit/offset', async () => {
    const reply = await http('GET', '/rpc/film_titles?limit=2&offset=1', {
      headers: { prefer: 'count=exact' },
    });
    expect(reply.body).toEqual(['The Dickson Experimental Sound Film', 'The Haunted Castle']);
    expect(reply.status).toBe(206);
    expect(reply.headers.get('content-range')).toBe('1-2/5');
  });

  it('a single composite (table type or OUT parameters) is an object', async () => {
    expect((await http('GET', '/rpc/get_film?fid=2&select=id,title')).body).toEqual({
      id: 2,
      title: 'The Dickson Experimental Sound Film',
    });
    expect((await http('GET', '/rpc/film_summary?fid=1')).body).toEqual({
      title: 'Workers Leaving The Lumière Factory',
      year: 1895,
    });
  });

  it('set-returning functions take filters, order, select, embedding and counts', async () => {
    const reply = await http(
      'GET',
      '/rpc/films_by_year?min_year=1890&select=id,director:directors(last_name)&language=eq.french&order=id.desc&limit=2',
      { headers: { prefer: 'count=exact' } },
    );
    expect(reply.status).toBe(206);
    expect(reply.headers.get('content-range')).toBe('0-1/3');
    expect(reply.body).toEqual([
      { id: 4, director: { last_name: 'Méliès' } },
      { id: 3, director: { last_name: 'Méliès' } },
    ]);
    const table = await http('POST', '/rpc/search_films?year=lt.1900&select=title&order=year', {
      body: { q: 'the' },
    });
    expect(table.body).toEqual([
      { title: 'The Dickson Experimental Sound Film' },
      { title: 'Workers Leaving The Lumière Factory' },
      { title: 'The Haunted Castle' },
    ]);
    const single = await http('GET', '/rpc/search_films?q=moon', {
      headers: { accept: 'application/vnd.pgrst.object+json' },
    });
    expect(single.body).toEqual({ id: 4, title: 'A Trip to the Moon', year: 1902 });
    expectError(
      await http('GET', '/rpc/search_films?q=the', {
        headers: { accept: 'application/vnd.pgrst.object+json' },
      }),
      406,
      'PGRST116',
    );
  });

  it('HEAD counts without a body', async () => {
    const reply = await http('HEAD', '/rpc/search_films?q=the', { headers: { prefer: 'count=exact' } });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('');
    expect(reply.headers.get('content-range')).toBe('0-3/4');
  });

  it('CSV from a set-returning function', async () => {
    const reply = await http('GET', '/rpc/search_films?q=moon', { headers: { accept: 'text/csv' } });
    expect(reply.text).toBe('id,title,year\n4,"A Trip to the Moon",1902');
  });

  it('filters on a scalar result are an unknown column', async () => {
    expectError(await http('GET', '/rpc/add_them?a=1&b=2&x=eq.1'), 400, '42703');
  });
});

describe('arguments', () => {
  it('defaults fill missing arguments', async () => {
    // q defaults to '' and max_year to 3000: every film with a year
    expect((await http('GET', '/rpc/search_films?select=id&order=id')).body).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 3 },
      { id: 4 },
    ]);
    expect((await http('POST', '/rpc/films_by_year?select=id', { body: '' })).body).toHaveLength(4);
  });

  it('arrays: JSON arrays in POST, array literals in GET, variadic repeats', async () => {
    expect((await http('POST', '/rpc/plus_one', { body: { arr: [1, 2, 3] } })).body).toEqual([2, 3, 4]);
    expect((await http('GET', '/rpc/plus_one?arr={1,2}')).body).toEqual([2, 3]);
    expect((await http('GET', '/rpc/sum_all?nums=1&nums=2&nums=3')).text).toBe('6');
    expect((await http('POST', '/rpc/sum_all', { body: { nums: [4, 5] } })).text).toBe('9');
  });

  it('a single unnamed jsonb parameter takes the whole body', async () => {
    const reply = await http('POST', '/rpc/echo', { body: { any: ['thing', 1, null] } });
    expect(reply.body).toEqual({ any: ['thing', 1, null] });
  });

  it('overloads are chosen by the argument names', async () => {
    expect((await http('GET', '/rpc/overloaded?a=1')).body).toBe('one');
    expect((await http('POST', '/rpc/overloaded', { body: { a: 1, b: 2 } })).body).toBe('two');
    const ambiguous = await http('GET', '/rpc/same_name?x=1');
    expectError(ambiguous, 300, 'PGRST203');
    expect(ambiguous.body).toMatchObject({
      message:
        'Could not choose the best candidate function between: public.same_name(x => integer), public.same_name(x => text)',
    });
  });

  it('unknown functions and argument names are PGRST202 with a hint', async () => {
    const unknownArg = await http('POST', '/rpc/add_them', { body: { a: 1, c: 2 } });
    expectError(unknownArg, 404, 'PGRST202');
    expect(unknownArg.body).toEqual({
      code: 'PGRST202',
      message: 'Could not find the function public.add_them(a, c) in the schema cache',
      details:
        'Searched for the function public.add_them with parameters a, c or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function public.add_them(a, b)',
    });
    const missing = await http('GET', '/rpc/add_them?a=1');
    expectError(missing, 404, 'PGRST202');
    const none = await http('GET', '/rpc/nothing_here');
    expect(none.body).toMatchObject({
      message: 'Could not find the function public.nothing_here without parameters in the schema cache',
    });
  });

  it('wrongly typed arguments are 22P02', async () => {
    expectError(await http('GET', '/rpc/add_them?a=one&b=2'), 400, '22P02');
    expectError(await http('POST', '/rpc/add_them', { body: '{"a": 1, "b": ' }), 400, 'PGRST102');
  });
});

describe('access mode and errors', () => {
  it('GET runs read-only: a writing function fails with 405, POST writes', async () => {
    const service = restHttp(server, server.serviceRoleKey);
    expectError(await service('GET', '/rpc/add_note?body=hi'), 405, '25006');
    expect((await service('POST', '/rpc/add_note', { body: { body: 'hi' } })).status).toBe(204);
    const notes = await server.db.query("select count(*)::int as n from notes where body = 'hi'");
    expect(notes.rows).toEqual([{ n: 1 }]);
  });

  it('POST to a stable function runs read-only too', async () => {
    expectError(await http('POST', '/rpc/sneaky_write'), 405, '25006');
    expect((await http('POST', '/rpc/write_drop_box')).text).toBe('1');
  });

  it('RAISE maps to 400 with the message; PGRST and PTxyz control the answer', async () => {
    expect(await http('POST', '/rpc/fail', { body: { message: 'Quota reached' } })).toMatchObject({
      status: 400,
      body: {
        code: 'P0001',
        message: 'Quota reached',
        details: 'It failed on purpose',
        hint: 'Ask for something else',
      },
    });
    const custom = await http('POST', '/rpc/payment_required');
    expect(custom.status).toBe(402);
    expect(custom.headers.get('x-powered-by')).toBe('Nerd Rage');
    expect(custom.body).toEqual({
      code: '123',
      message: 'Payment Required',
      details: 'Quota exceeded',
      hint: 'Upgrade your plan',
    });
    const teapot = await http('POST', '/rpc/teapot');
    expect(teapot.status).toBe(418);
    expect(teapot.body).toMatchObject({ code: 'PT418', message: 'I am a teapot' });
  });

  it('a function the role may not execute is 42501 (401 for anon)', async () => {
    expectError(await http('POST', '/rpc/private_fn'), 401, '42501');
    const service = restHttp(server, server.serviceRoleKey);
    expect((await service('POST', '/rpc/private_fn')).text).toBe('42');
  });

  it('only GET, HEAD and POST are allowed (PGRST101)', async () => {
    const reply = await http('PATCH', '/rpc/add_them', { body: {} });
    expectError(reply, 405, 'PGRST101');
    expect(reply.body).toMatchObject({ message: 'Cannot use the PATCH method on RPC' });
  });

  it('max-affected with handling=strict needs a set-returning function', async () => {
    expectError(
      await http('POST', '/rpc/add_them', {
        body: { a: 1, b: 1 },
        headers: { prefer: 'handling=strict,max-affected=1' },
      }),
      400,
      'PGRST128',
    );
    expectError(
      await http('POST', '/rpc/film_titles', { headers: { prefer: 'handling=strict,max-affected=2' } }),
      400,
      'PGRST124',
    );
  });
});
