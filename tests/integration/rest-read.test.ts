// @databases: both — the data API's generated SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRequest } from '#server/rest/plan.ts';
import { Params, readStatement } from '#server/rest/query.ts';
import { parseApiRequest } from '#server/rest/request.ts';
import { loadSchemaCache } from '#server/rest/schema-cache.ts';
import { installRestFixture, type RestReply, restHttp } from '#tests/support/rest-fixture.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

/** The read grammar over raw HTTP: every operator, embedding, ordering, paging, counts, media types. */

let server: TestServer;
let http: ReturnType<typeof restHttp>;
beforeAll(async () => {
  server = await startTestServer();
  await installRestFixture(server);
  http = restHttp(server);
});
afterAll(() => server?.close());

const get = (path: string, headers: Record<string, string> = {}) => http('GET', path, { headers });
const ids = async (path: string): Promise<number[]> => {
  const reply = await get(path);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body as { id: number }[]).map((row) => row.id);
};
const expectError = (reply: RestReply, status: number, code: string) => {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body).toMatchObject({ code });
  expect(Object.keys(reply.body as object).sort()).toEqual(['code', 'details', 'hint', 'message']);
};

describe('operators', () => {
  it.each([
    ['id=eq.3', [3]],
    ['id=neq.3', [1, 2, 4, 5]],
    ['year=gt.1895', [3, 4]],
    ['year=gte.1895', [1, 3, 4]],
    ['year=lt.1895', [2]],
    ['year=lte.1895', [1, 2]],
    ['title=like.*Moon', [4]],
    ['title=like.The*', [2, 3]],
    ['title=ilike.*HAUNTED*', [3]],
    ['title=match.^A ', [4]],
    ['title=imatch.castle$', [3]],
    ['id=in.(1,3,99)', [1, 3]],
    ['title=in.("Untitled, (draft)",x)', [5]],
    ['id=in.()', []],
    ['year=is.null', [5]],
    ['year=is.not_null', [1, 2, 3, 4]],
    ['meta->color=is.null', [5]],
    ['language=isdistinct.french', [2, 5]],
    ['search=fts.moon', [4]],
    ['search=fts(english).haunted %26 castle', [3]],
    ['title=plfts.haunted castle', [3]],
    ['title=phfts(english).sound film', [2]],
    ['title=wfts.trip -castle', [4]],
    ['tags=cs.{short}', [1, 2, 3]],
    ['tags=cd.{short,horror,documentary}', [1, 3, 5]],
    ['tags=ov.{fantasy,experimental}', [2, 4]],
    ['meta=cs.{"minutes":13}', [4]],
    ['meta->>minutes=eq.3', [3]],
    ['meta->minutes=gt.2', [3, 4]],
    ['tags->>0=eq.horror', [3]],
    ['id=eq(any).{1,2}', [1, 2]],
    ['title=like(any).{*Moon,*Castle}', [3, 4]],
    ['title=ilike(all).{*the*,*moon*}', [4]],
    ['year=gt(all).{1894,1895}', [3, 4]],
    ['year=not.eq.1902', [1, 2, 3]],
    ['id=not.in.(1,2,3)', [4, 5]],
    ['year=not.is.null&language=not.eq.french', [2]],
    ['title=not.like.*the*', [1, 2, 3, 5]],
  ])('films?%s', async (query, expected) => {
    expect((await ids(`/films?select=id&order=id&${query}`)).sort()).toEqual(expected);
  });

  it.each([
    ['slot=sl.[13,20)', [1]],
    ['slot=sr.[1,12)', [2, 3]],
    ['slot=nxr.[0,14)', [1, 3]],
    ['slot=nxl.[12,20)', [2, 3]],
    ['slot=adj.[12,14)', [1, 2]],
    ['slot=ov.[11,13)', [1, 3]],
    ['slot=cs.[11,12)', [1]],
  ])('range operators: showings?%s', async (query, expected) => {
    expect(await ids(`/showings?select=id&order=id&${query}`)).toEqual(expected);
  });

  it.each([
    ['or=(id.eq.1,year.gt.1900)', [1, 4]],
    ['and=(year.gte.1894,year.lte.1895)', [1, 2]],
    ['not.or=(language.eq.french,year.is.null)', [2]],
    ['or=(id.eq.5,and(year.gt.1894,language.not.eq.french))', [5]],
    ['or=(id.eq.1,not.and(year.gt.1894,year.lt.1900))', [1, 2, 4]],
    ['or=(title.eq."Untitled, (draft)",tags.cs.{horror})', [3, 5]],
    ['or=(id.in.(1,2),year.is.null)&language=neq.english', [1]],
    ['or=(meta->>minutes.eq.13,title.ilike.*dickson*)', [2, 4]],
  ])('logic: films?%s', async (query, expected) => {
    expect((await ids(`/films?select=id&order=id&${query}`)).sort()).toEqual(expected);
  });

  it('an unknown operator or a malformed value is PGRST100', async () => {
    expectError(await get('/films?id=like_eq.1'), 400, 'PGRST100');
    expectError(await get('/films?or=(id.eq.1'), 400, 'PGRST100');
    expectError(await get('/films?id=in.1,2'), 400, 'PGRST100');
    expectError(await get('/films?id=is.maybe'), 400, 'PGRST100');
    const reply = await get('/films?id=zz.1');
    expect(reply.body).toEqual({
      code: 'PGRST100',
      message: '"failed to parse filter (zz.1)" (line 1, column 1)',
      details: 'unknown single value operator zz',
      hint: null,
    });
  });

  it('a value of the wrong type is answered by PostgreSQL (22P02, 400)', async () => {
    expectError(await get('/films?id=eq.one'), 400, '22P02');
    expectError(await get('/films?title=fts(klingon).moon'), 400, '42704');
  });
});

describe('select', () => {
  it('renames and casts columns and reads JSON paths', async () => {
    const reply = await get(
      '/films?select=name:title,rating::text,year::varchar,minutes:meta->minutes,color:meta->>color,first_tag:tags->0&id=eq.4',
    );
    expect(reply.body).toEqual([
      {
        name: 'A Trip to the Moon',
        rating: '8.1',
        year: '1902',
        minutes: 13,
        color: 'true',
        first_tag: 'adventure',
      },
    ]);
  });

  it('an unknown cast type is 42704', async () => {
    expectError(await get('/films?select=id::nonsense'), 400, '42704');
  });

  it('an unknown column is 42703 in select, filters and order', async () => {
    expectError(await get('/films?select=nope'), 400, '42703');
    expectError(await get('/films?nope=eq.1'), 400, '42703');
    expectError(await get('/films?order=nope'), 400, '42703');
  });

  it('reads a view', async () => {
    expect((await get('/film_cards?select=id,dir_id&id=lt.3&order=id')).body).toEqual([
      { id: 1, dir_id: 1 },
      { id: 2, dir_id: 2 },
    ]);
  });

  it('an unknown table is PGRST205 with a suggestion', async () => {
    const reply = await get('/flims');
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({
      code: 'PGRST205',
      message: "Could not find the table 'public.flims' in the schema cache",
      details: null,
      hint: "Perhaps you meant the table 'public.films'",
    });
  });

  it('an empty select returns empty objects', async () => {
    expect((await get('/directors?select=&id=lt.3')).body).toEqual([{}, {}]);
  });
});

describe('embedding', () => {
  it('many-to-one is an object (or null), one-to-many an array', async () => {
    expect((await get('/films?select=id,directors(last_name)&id=in.(4,5)&order=id')).body).toEqual([
      { id: 4, directors: { last_name: 'Méliès' } },
      { id: 5, directors: null },
    ]);
    expect((await get('/directors?select=id,films(id)&order=id')).body).toEqual([
      { id: 1, films: [{ id: 1 }] },
      { id: 2, films: [{ id: 2 }] },
      { id: 3, films: [{ id: 3 }, { id: 4 }] },
      { id: 4, films: [] },
    ]);
  });

  it('one-to-one is an object; many-to-many goes through the join table', async () => {
    expect((await get('/films?select=id,technical_specs(camera)&id=in.(1,2)&order=id')).body).toEqual([
      { id: 1, technical_specs: { camera: 'Cinématographe' } },
      { id: 2, technical_specs: null },
    ]);
    expect((await get('/actors?select=last_name,films(id)&id=eq.1&films.order=id')).body).toEqual([
      { last_name: "d'Alcy", films: [{ id: 3 }, { id: 4 }] },
    ]);
  });

  it('nests embeds and aliases them', async () => {
    expect(
      (
        await get(
          '/films?select=title,cast:roles(character,actor:actors(first_name))&id=eq.4&cast.order=character',
        )
      ).body,
    ).toEqual([
      {
        title: 'A Trip to the Moon',
        cast: [
          { character: 'Moon woman', actor: { first_name: 'Bleuette' } },
          { character: 'Phoebe', actor: { first_name: 'Jehanne' } },
          { character: 'Professor Barbenfouillis', actor: { first_name: 'Georges' } },
        ],
      },
    ]);
  });

  it('disambiguates two foreign keys to one table by constraint or column name', async () => {
    const ambiguous = await get('/orders?select=*,addresses(*)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.body).toMatchObject({
      code: 'PGRST201',
      details: [
        {
          cardinality: 'many-to-one',
          embedding: 'orders with addresses',
          relationship: 'billing using orders(billing_address_id) and addresses(id)',
        },
        {
          cardinality: 'many-to-one',
          embedding: 'orders with addresses',
          relationship: 'shipping using orders(shipping_address_id) and addresses(id)',
        },
      ],
      hint: "Try changing 'addresses' to one of the following: 'addresses!billing', 'addresses!shipping'. Find the desired relationship in the 'details' key.",
    });
    expect(
      (
        await get(
          '/orders?select=id,billing:addresses!billing(city),ship:addresses!shipping_address_id(city)&order=id',
        )
      ).body,
    ).toEqual([
      { id: 1, billing: { city: 'Lyon' }, ship: { city: 'Paris' } },
      { id: 2, billing: { city: 'Paris' }, ship: { city: 'Paris' } },
    ]);
    expect((await get('/orders?select=id,billing_address_id(city)&id=eq.1')).body).toEqual([
      { id: 1, billing_address_id: { city: 'Lyon' } },
    ]);
    expect((await get('/addresses?select=id,billed:orders!billing(id)&order=id')).body).toEqual([
      { id: 1, billed: [{ id: 1 }] },
      { id: 2, billed: [{ id: 2 }] },
    ]);
  });

  it('filters, orders and pages embedded resources without touching the parent rows', async () => {
    expect((await get('/directors?select=id,films(id)&films.year=gt.1900&id=gte.3&order=id')).body).toEqual([
      { id: 3, films: [{ id: 4 }] },
      { id: 4, films: [] },
    ]);
    expect(
      (await get('/directors?select=id,films(id)&id=eq.3&films.order=id.desc&films.limit=1&films.offset=1'))
        .body,
    ).toEqual([{ id: 3, films: [{ id: 3 }] }]);
    expect(
      (
        await get(
          '/films?select=id,roles(character)&id=eq.4&roles.or=(character.like.M*,character.like.P*)&roles.order=character.desc',
        )
      ).body,
    ).toEqual([
      {
        id: 4,
        roles: [
          { character: 'Professor Barbenfouillis' },
          { character: 'Phoebe' },
          { character: 'Moon woman' },
        ],
      },
    ]);
  });

  it('!inner and null filters on embeds filter the parent rows', async () => {
    expect(await ids('/directors?select=id,films!inner(id)&films.year=gt.1900')).toEqual([3]);
    expect(await ids('/films?select=id,directors!inner(id)&directors.last_name=eq.Dickson')).toEqual([2]);
    expect(await ids('/directors?select=id,films(id)&films=is.null')).toEqual([4]);
    expect(await ids('/films?select=id,actors()&actors.first_name=eq.Georges&actors=not.is.null')).toEqual([
      4,
    ]);
    expect(await ids('/films?select=id,technical_specs()&technical_specs=is.null&order=id')).toEqual([
      2, 3, 5,
    ]);
    expect(
      await ids(
        '/films?select=id,d:directors(),a:actors()&d.last_name=eq.Dickson&a.first_name=eq.Bleuette&or=(d.not.is.null,a.not.is.null)&order=id',
      ),
    ).toEqual([2, 4]);
    // an empty embed shows nothing
    expect((await get('/films?select=id,actors()&id=eq.4')).body).toEqual([{ id: 4 }]);
  });

  it('spreads a to-one embed into the parent', async () => {
    expect(
      (await get('/films?select=title,...directors(director:last_name,first_name)&id=eq.1')).body,
    ).toEqual([{ title: 'Workers Leaving The Lumière Factory', director: 'Lumière', first_name: 'Louis' }]);
    // PostgREST 13 spreads a to-many embed as one array per column (decision 110)
    expect((await get('/directors?select=last_name,...films(id,year)&id=eq.3&films.order=id')).body).toEqual([
      { last_name: 'Méliès', id: [3, 4], year: [1896, 1902] },
    ]);
  });

  it('embeds through a view (relationships of its base table)', async () => {
    expect((await get('/film_cards?select=id,directors(last_name),roles(character)&id=eq.3')).body).toEqual([
      { id: 3, directors: { last_name: 'Méliès' }, roles: [{ character: 'Phantom' }] },
    ]);
    expect((await get('/directors?select=id,film_cards(title)&id=eq.2')).body).toEqual([
      { id: 2, film_cards: [{ title: 'The Dickson Experimental Sound Film' }] },
    ]);
  });

  it('answers embedding mistakes as PostgREST does', async () => {
    expectError(await get('/films?select=*,directorz(*)'), 400, 'PGRST200');
    expectError(await get('/films?select=id&directors.id=eq.1'), 400, 'PGRST108');
    expectError(await get('/films?select=id,directors(id)&directors=eq.1'), 400, 'PGRST120');
    expectError(await get('/films?select=id,count()'), 400, 'PGRST123');
  });

  it('parses every aggregate form of PostgREST 13 and refuses it as aggregates are off by default', async () => {
    for (const select of [
      'count()',
      'n:count()::text',
      'year.sum()',
      'year.avg(),language',
      'total:year.max()::text',
      'year::int.min()',
      'id,directors(id.count())',
      'id,...directors(last_name.max())',
    ]) {
      const response = await get(`/films?select=${encodeURIComponent(select)}`);
      expectError(response, 400, 'PGRST123');
      expect(response.body).toMatchObject({ message: 'Use of aggregate functions is not allowed' });
    }
    // Not an aggregate: a malformed one is a parse error, as upstream.
    expectError(await get(`/films?select=${encodeURIComponent('year.total()')}`), 400, 'PGRST100');
  });

  it('counts with a bare `count` whether or not aggregates are on, as PostgREST (PostgreSQL reads rel.count as count(rel))', async () => {
    const top = await get('/films?select=count');
    expect(top.status, top.text).toBe(200);
    expect(top.body).toEqual([{ count: 5 }]);
    const embedded = await get('/directors?select=last_name,films(count)&order=id');
    expect(embedded.status, embedded.text).toBe(200);
    expect(embedded.body).toEqual([
      { last_name: 'Lumière', films: [{ count: 1 }] },
      { last_name: 'Dickson', films: [{ count: 1 }] },
      { last_name: 'Méliès', films: [{ count: 2 }] },
      { last_name: 'Guy', films: [{ count: 0 }] },
    ]);
    const aliased = await get('/films?select=n:count&language=eq.french');
    expect(aliased.body).toEqual([{ n: 3 }]);
  });
});

describe('ordering', () => {
  it('orders by several columns, directions and null placement', async () => {
    expect(await ids('/films?select=id&order=language.desc.nullslast,year.asc')).toEqual([1, 3, 4, 2, 5]);
    expect(await ids('/films?select=id&order=year.desc.nullsfirst')).toEqual([5, 4, 3, 1, 2]);
    expect(await ids('/films?select=id&order=year.nullsfirst')).toEqual([5, 2, 1, 3, 4]);
    expect(await ids('/films?select=id&order=meta->minutes.desc.nullslast,id')).toEqual([4, 3, 1, 2, 5]);
  });

  it('orders by a column of a to-one embed', async () => {
    expect(
      await ids('/films?select=id,directors(last_name)&order=directors(last_name).asc.nullsfirst,id'),
    ).toEqual([5, 2, 1, 3, 4]);
    expectError(await get('/directors?select=id,films(id)&order=films(id)'), 400, 'PGRST118');
  });

  it('rejects a malformed order', async () => {
    expectError(await get('/films?order=id.upward'), 400, 'PGRST100');
  });
});

describe('paging and counts', () => {
  it('limit and offset, with Content-Range', async () => {
    const reply = await get('/films?select=id&order=id&limit=2&offset=1');
    expect(reply.body).toEqual([{ id: 2 }, { id: 3 }]);
    expect(reply.headers.get('content-range')).toBe('1-2/*');
    const none = await get('/films?select=id&limit=0');
    expect(none.body).toEqual([]);
    expect(none.headers.get('content-range')).toBe('*/*');
  });

  it('the Range header, intersected with limit', async () => {
    const reply = await get('/films?select=id&order=id', { range: '1-3', 'range-unit': 'items' });
    expect(reply.body).toEqual([{ id: 2 }, { id: 3 }, { id: 4 }]);
    expect(reply.headers.get('content-range')).toBe('1-3/*');
    expect((await get('/films?select=id&order=id', { range: '3-' })).body).toEqual([{ id: 4 }, { id: 5 }]);
    expect((await get('/films?select=id&order=id&limit=2&offset=1', { range: '2-4' })).body).toEqual([
      { id: 3 },
    ]);
    expectError(await get('/films', { range: '3-1' }), 416, 'PGRST103');
  });

  it('count=exact: 206 for a partial page, 200 for all, 416 past the end', async () => {
    const partial = await get('/films?select=id&limit=2', { prefer: 'count=exact' });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe('0-1/5');
    expect(partial.headers.get('preference-applied')).toBe('count=exact');
    const all = await get('/films?select=id&language=eq.french', { prefer: 'count=exact' });
    expect(all.status).toBe(200);
    expect(all.headers.get('content-range')).toBe('0-2/3');
    const past = await get('/films?offset=9', { prefer: 'count=exact' });
    expectError(past, 416, 'PGRST103');
    expect(past.body).toMatchObject({ details: 'An offset of 9 was requested, but there are only 5 rows.' });
    expect(past.headers.get('content-range')).toBe('*/5');
  });

  it('counts respect !inner embeds and embed null filters', async () => {
    const inner = await get('/directors?select=id,films!inner(id)&films.year=gt.1900', {
      prefer: 'count=exact',
    });
    expect(inner.headers.get('content-range')).toBe('0-0/1');
    const anti = await get('/directors?select=id,films()&films=is.null', { prefer: 'count=exact' });
    expect(anti.headers.get('content-range')).toBe('0-0/1');
  });

  it('count=planned and count=estimated give a number', async () => {
    const planned = await get('/films?select=id&limit=1', { prefer: 'count=planned' });
    expect(planned.headers.get('content-range')).toMatch(/^0-0\/\d+$/);
    const estimated = await get('/films?select=id&limit=1', { prefer: 'count=estimated' });
    // below db-max-rows the estimate is the exact count
    expect(estimated.headers.get('content-range')).toBe('0-0/5');
    expect(estimated.status).toBe(206);
  });

  it('a short page is its own total: every limit and offset agrees with a full count, and the count is not run again', async () => {
    // Five films; a page that comes back short ends the rows, so its total is its offset plus its rows.
    for (const prefer of ['count=exact', 'count=estimated']) {
      for (const limit of [1, 2, 4, 5, 6]) {
        for (const offset of [0, 1, 3, 4, 5, 7]) {
          const reply = await get(`/films?select=id&order=id&limit=${limit}&offset=${offset}`, { prefer });
          const range = reply.headers.get('content-range');
          if (offset >= 5) expect(range, `${prefer} limit ${limit} offset ${offset}`).toBe('*/5');
          else
            expect(range, `${prefer} limit ${limit} offset ${offset}`).toBe(
              `${offset}-${Math.min(offset + limit, 5) - 1}/5`,
            );
        }
      }
    }
    // Filters, !inner embeds and the Range header count the same rows the page holds.
    const french = await get('/films?select=id&language=eq.french&offset=1', { prefer: 'count=exact' });
    expect(french.headers.get('content-range')).toBe('1-2/3');
    const inner = await get('/directors?select=id,films!inner(id)&films.year=gt.1900&limit=5', {
      prefer: 'count=exact',
    });
    expect(inner.headers.get('content-range')).toBe('0-0/1');
    const ranged = await get('/films?select=id&order=id', { prefer: 'count=exact', range: '3-9' });
    expect(ranged.headers.get('content-range')).toBe('3-4/5');

    // The statement itself: a short page never runs the count's subquery; a full one does.
    const plan = async (query: string) => {
      const cache = await loadSchemaCache(server.db);
      const planned = planRequest(
        { cache, maxRows: 1000 },
        parseApiRequest({
          method: 'GET',
          route: 'relation',
          name: 'films',
          query,
          headers: {},
          body: undefined,
        }),
      );
      if (planned.plan.kind !== 'read') throw new Error('not a read');
      const p = new Params();
      const sql = readStatement(p, planned.plan.read, { media: planned.media, head: false, count: 'exact' });
      const { rows } = await server.db.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, costs off, timing off, summary off) ${sql}`,
        p.values,
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    };
    expect(await plan('select=id&order=id&limit=10')).toMatch(/never executed/);
    expect(await plan('select=id&order=id&limit=2')).not.toMatch(/never executed/);
  });

  it('HEAD answers the headers without a body', async () => {
    const reply = await http('HEAD', '/films?language=eq.french', { headers: { prefer: 'count=exact' } });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('');
    expect(reply.headers.get('content-range')).toBe('0-2/3');
  });

  it('a negative limit is PGRST103 and a non-numeric one PGRST100', async () => {
    expectError(await get('/films?limit=-1'), 416, 'PGRST103');
    expectError(await get('/films?offset=x'), 400, 'PGRST100');
  });
});

describe('media types and profiles', () => {
  it('application/vnd.pgrst.object+json: exactly one row or PGRST116 (406)', async () => {
    const one = await get('/films?select=id&id=eq.2', { accept: 'application/vnd.pgrst.object+json' });
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('application/vnd.pgrst.object+json; charset=utf-8');
    expect(one.body).toEqual({ id: 2 });
    const none = await get('/films?id=eq.99', { accept: 'application/vnd.pgrst.object+json' });
    expectError(none, 406, 'PGRST116');
    expect(none.body).toMatchObject({
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 0 rows',
    });
    const many = await get('/films', { accept: 'application/vnd.pgrst.object+json' });
    expect(many.body).toMatchObject({ code: 'PGRST116', details: 'The result contains 5 rows' });
  });

  it('text/csv with a header row and quoting', async () => {
    const reply = await get('/films?select=id,title,tags&id=in.(1,5)&order=id', { accept: 'text/csv' });
    expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(reply.text).toBe(
      'id,title,tags\n1,"Workers Leaving The Lumière Factory","{documentary,short}"\n5,"Untitled, (draft)",{}',
    );
  });

  it('array+json, nulls=stripped and wildcards', async () => {
    const stripped = await get('/films?select=id,year&id=eq.5', {
      accept: 'application/vnd.pgrst.array+json;nulls=stripped',
    });
    expect(stripped.body).toEqual([{ id: 5 }]);
    expect((await get('/films?select=id&id=eq.5', { accept: 'text/html, */*;q=0.1' })).body).toEqual([
      { id: 5 },
    ]);
  });

  it('an unavailable media type is PGRST107 (406)', async () => {
    const reply = await get('/films', { accept: 'application/xml' });
    expectError(reply, 406, 'PGRST107');
    expect(reply.body).toMatchObject({ message: 'None of these media types are available: application/xml' });
  });

  it('only the public schema is exposed (PGRST106)', async () => {
    expect((await get('/films?select=id&id=eq.1', { 'accept-profile': 'public' })).status).toBe(200);
    const reply = await get('/films', { 'accept-profile': 'auth' });
    expectError(reply, 406, 'PGRST106');
    expect(reply.body).toMatchObject({
      message: 'Invalid schema: auth',
      hint: 'Only the following schemas are exposed: public',
    });
  });
});

describe('db-max-rows', () => {
  let capped: TestServer;
  beforeAll(async () => {
    capped = await startTestServer({ PGRST_DB_MAX_ROWS: '2' });
    await installRestFixture(capped);
  });
  afterAll(() => capped?.close());

  it('caps every read, also with a larger limit, and counts past the cap', async () => {
    const get2 = restHttp(capped);
    const reply = await get2('GET', '/films?select=id&order=id&limit=10', {
      headers: { prefer: 'count=exact' },
    });
    expect(reply.body).toEqual([{ id: 1 }, { id: 2 }]);
    expect(reply.status).toBe(206);
    expect(reply.headers.get('content-range')).toBe('0-1/5');
    const rpc = await get2('GET', '/rpc/film_titles');
    expect(rpc.body).toHaveLength(2);
  });
});
