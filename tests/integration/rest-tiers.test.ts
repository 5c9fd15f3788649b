import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installRestFixture, userToken } from '#tests/support/rest-fixture.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

/**
 * One request corpus, sent to a server on PGlite and to one on PostgreSQL: status, headers and body
 * bytes must be identical. The test starts both tiers itself, so it needs a PostgreSQL server
 * (TEST_PG_URL, as the PostgreSQL tier does); without one there is nothing to compare against.
 */

interface CorpusRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Send as the signed-in user Alice. */
  user?: boolean;
}

const ALICE = '00000000-0000-4000-8000-000000000001';

const CORPUS: CorpusRequest[] = [
  // reads: every operator, embedding, ordering, paging, counts, media types
  { path: '/films?order=id' },
  { path: '/films?select=id,title,rating,tags,meta,released,search&order=id' },
  { path: '/films?select=id&year=gt.1895&order=id' },
  { path: '/films?select=id&title=like.*Moon&order=id' },
  { path: '/films?select=id&title=ilike.*the*&order=id' },
  { path: '/films?select=id&title=match.^A&order=id' },
  { path: '/films?select=id&title=imatch.castle$&order=id' },
  { path: '/films?select=id&id=in.(1,3,99)&order=id' },
  { path: '/films?select=id&year=is.null' },
  { path: '/films?select=id&language=isdistinct.french&order=id' },
  { path: '/films?select=id&search=fts.moon' },
  { path: '/films?select=id&title=plfts(english).haunted castle' },
  { path: '/films?select=id&title=phfts.sound film' },
  { path: '/films?select=id&title=wfts.trip -castle' },
  { path: '/films?select=id&tags=cs.{short}&order=id' },
  { path: '/films?select=id&tags=cd.{short,horror,documentary}&order=id' },
  { path: '/films?select=id&tags=ov.{fantasy,experimental}&order=id' },
  { path: '/films?select=id&meta=cs.{"minutes":13}' },
  { path: '/films?select=id,minutes:meta->minutes,color:meta->>color&meta->>minutes=gt.0&order=id' },
  { path: '/films?select=id&id=eq(any).{1,2}&order=id' },
  { path: '/films?select=id&title=like(all).{*the*,*Moon*}' },
  { path: '/films?select=id&or=(id.eq.1,and(year.gt.1900,rating.gte.8))&order=id' },
  { path: '/films?select=id&not.or=(language.eq.french,year.is.null)' },
  { path: '/showings?select=id,slot&slot=ov.[11,13)&order=id' },
  { path: '/showings?select=id&slot=adj.[12,14)&order=id' },
  { path: '/showings?select=starts_at,slot&order=id' },
  { path: '/films?select=name:title,rating::text,year::varchar&id=eq.4' },
  { path: '/films?select=title,director:directors(last_name)&order=id' },
  { path: '/directors?select=last_name,films(title)&order=id&films.order=id' },
  { path: '/films?select=title,actors(first_name)&id=eq.4&actors.order=first_name' },
  { path: '/films?select=title,tech:technical_specs(camera)&order=id' },
  { path: '/films?select=title,cast:roles(character,actor:actors(first_name))&id=eq.4&cast.order=character' },
  { path: '/directors?select=id,films!inner(id)&films.year=gt.1900' },
  { path: '/directors?select=id,films()&films=is.null' },
  { path: '/films?select=title,...directors(dname:last_name)&order=id' },
  { path: '/film_cards?select=id,directors(last_name),roles(character)&order=id&roles.order=character' },
  { path: '/orders?select=id,billing:addresses!billing(city),ship:addresses!shipping(city)&order=id' },
  { path: '/films?select=id,directors(last_name)&order=directors(last_name).desc.nullslast,id' },
  { path: '/films?select=id&order=language.desc.nullsfirst,year.asc' },
  { path: '/films?select=id&order=id&limit=2&offset=1' },
  { path: '/films?select=id&order=id', headers: { range: '1-3' } },
  { path: '/films?select=id&order=id&limit=2', headers: { prefer: 'count=exact' } },
  { path: '/films?select=id&order=id', headers: { prefer: 'count=estimated' } },
  { path: '/films?offset=20', headers: { prefer: 'count=exact' } },
  { method: 'HEAD', path: '/films', headers: { prefer: 'count=exact' } },
  { path: '/films?id=eq.2', headers: { accept: 'application/vnd.pgrst.object+json' } },
  { path: '/films?id=eq.99', headers: { accept: 'application/vnd.pgrst.object+json' } },
  { path: '/films?select=id,title,tags,meta&order=id', headers: { accept: 'text/csv' } },
  {
    path: '/films?select=id,year,rating&order=id',
    headers: { accept: 'application/vnd.pgrst.array+json;nulls=stripped' },
  },
  { path: '/showings?select=starts_at&order=id', headers: { prefer: 'timezone=Asia/Tokyo' } },
  { path: '/notes?select=id,body&order=id' },
  { path: '/notes?select=id,body&order=id', user: true },
  // errors
  { path: '/flims' },
  { path: '/films?select=nope' },
  { path: '/films?id=eq.one' },
  { path: '/films?id=zz.1' },
  { path: '/films?select=*,directorz(*)' },
  { path: '/orders?select=*,addresses(*)' },
  { path: '/films?select=id::nonsense' },
  { path: '/films', headers: { accept: 'application/xml' } },
  { path: '/films', headers: { 'accept-profile': 'auth' } },
  { path: '/secrets' },
  { path: '/secrets', user: true },
  { path: '/notes?public=eq.maybe' },
  // functions
  { path: '/rpc/add_them?a=1&b=2' },
  { method: 'POST', path: '/rpc/add_them', body: { a: 40, b: 2 } },
  { path: '/rpc/film_titles?limit=2&offset=1', headers: { prefer: 'count=exact' } },
  { path: '/rpc/films_by_year?min_year=1890&select=id,director:directors(last_name)&order=id.desc' },
  { path: '/rpc/get_film?fid=2' },
  { path: '/rpc/film_summary?fid=1' },
  { method: 'POST', path: '/rpc/search_films?order=id', body: { q: 'the' } },
  { method: 'POST', path: '/rpc/do_nothing' },
  { method: 'POST', path: '/rpc/echo', body: { nested: { list: [1, 'two', null] } } },
  { path: '/rpc/plus_one?arr={1,2,3}' },
  { path: '/rpc/sum_all?nums=1&nums=2' },
  { path: '/rpc/same_name?x=1' },
  { method: 'POST', path: '/rpc/add_them', body: { a: 1, c: 2 } },
  { method: 'POST', path: '/rpc/fail', body: { message: 'nope' } },
  { method: 'POST', path: '/rpc/payment_required' },
  { path: '/rpc/add_note?body=x' },
  { method: 'POST', path: '/rpc/whoami', user: true },
  // writes, applied in the same order to both
  {
    method: 'POST',
    path: '/items?select=id,name,price,qty,note',
    body: { id: 10, name: 'ten', price: 1.5 },
    headers: { prefer: 'return=representation' },
  },
  {
    method: 'POST',
    path: '/items',
    body: [
      { id: 11, name: 'eleven', price: 2 },
      { id: 12, name: 'twelve', price: 3 },
    ],
    headers: { prefer: 'count=exact' },
  },
  {
    method: 'POST',
    path: '/items?columns=id,name,price,qty,note&order=id',
    body: [
      { id: 13, name: 'a', price: 1 },
      { id: 14, name: 'b', price: 1, qty: 5, note: null },
    ],
    headers: { prefer: 'return=representation,missing=default' },
  },
  {
    method: 'POST',
    path: '/items?order=id',
    body: [
      { id: 1, name: 'reel', price: 20 },
      { id: 15, name: 'c', price: 4 },
    ],
    headers: { prefer: 'resolution=merge-duplicates,return=representation' },
  },
  {
    method: 'POST',
    path: '/items?on_conflict=name',
    body: { id: 99, name: 'lens', price: 0 },
    headers: { prefer: 'resolution=ignore-duplicates,return=representation' },
  },
  { method: 'POST', path: '/items', body: { id: 1, name: 'dup', price: 1 } },
  { method: 'POST', path: '/items', body: { id: 16, name: 'neg', price: -1 } },
  { method: 'POST', path: '/items', body: { id: 16, name: 'x', price: 1, colour: 'red' } },
  { method: 'POST', path: '/items', body: '{broken' },
  { method: 'POST', path: '/films', body: { title: 'Located' }, headers: { prefer: 'return=headers-only' } },
  {
    method: 'PATCH',
    path: '/items?id=in.(10,11)&select=id,note&order=id',
    body: { note: 'patched' },
    headers: { prefer: 'return=representation,count=exact' },
  },
  { method: 'PATCH', path: '/items?id=eq.12', body: { qty: 'many' } },
  {
    method: 'PATCH',
    path: '/items?id=in.(10,11)',
    body: { note: 'x' },
    headers: { prefer: 'handling=strict,max-affected=1' },
  },
  { method: 'DELETE', path: '/items?id=in.(13,14)&order=id', headers: { prefer: 'return=representation' } },
  { method: 'DELETE', path: '/directors?id=eq.1' },
  {
    method: 'POST',
    path: '/notes?select=owner,body',
    body: { body: 'mine' },
    headers: { prefer: 'return=representation' },
    user: true,
  },
  {
    method: 'POST',
    path: '/notes',
    body: { owner: '00000000-0000-4000-8000-000000000002', body: 'forged' },
    user: true,
  },
  { path: '/items?order=id' },
];

interface Answer {
  status: number;
  contentType: string | null;
  contentRange: string | null;
  location: string | null;
  body: string;
}

async function send(server: TestServer, token: string, request: CorpusRequest): Promise<Answer> {
  const headers: Record<string, string> = { apikey: server.anonKey, ...request.headers };
  if (request.user) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (request.body !== undefined) {
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${server.url}/rest/v1${request.path}`, {
    method: request.method ?? 'GET',
    headers,
    body,
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    contentRange: response.headers.get('content-range'),
    location: response.headers.get('location'),
    body: await response.text(),
  };
}

/** A test server on the given tier, whichever tier this run is for. */
async function startOn(tier: 'pglite' | 'postgres'): Promise<TestServer> {
  const previous = process.env.TEST_DB;
  process.env.TEST_DB = tier;
  try {
    return await startTestServer();
  } finally {
    process.env.TEST_DB = previous;
  }
}

describe.skipIf(!process.env.TEST_PG_URL)('the same corpus on PGlite and on PostgreSQL', () => {
  let postgres: TestServer;
  let pglite: TestServer;
  beforeAll(async () => {
    postgres = await startOn('postgres');
    pglite = await startOn('pglite');
    await Promise.all([installRestFixture(postgres), installRestFixture(pglite)]);
  }, 120_000);
  afterAll(async () => {
    await postgres?.close();
    await pglite?.close();
  });

  it(`gives identical answers to ${CORPUS.length} requests`, async () => {
    expect([postgres.db.mode, pglite.db.mode]).toEqual(['postgres', 'embedded']);
    const tokens = [await userToken(postgres, ALICE), await userToken(pglite, ALICE)] as const;
    const differences: string[] = [];
    for (const request of CORPUS) {
      const onPostgres = await send(postgres, tokens[0], request);
      const onPglite = await send(pglite, tokens[1], request);
      expect(
        onPostgres.status,
        `${request.method ?? 'GET'} ${request.path}: ${onPostgres.body}`,
      ).toBeLessThan(500);
      if (JSON.stringify(onPostgres) !== JSON.stringify(onPglite)) {
        differences.push(
          `${request.method ?? 'GET'} ${request.path}\n  postgres: ${JSON.stringify(onPostgres)}\n  pglite:   ${JSON.stringify(onPglite)}`,
        );
      }
    }
    expect(differences, differences.join('\n')).toEqual([]);
  });
});
