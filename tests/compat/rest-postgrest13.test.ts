// @databases: both — the data API's generated SQL.
/**
 * The data API as PostgREST 13 answers postgrest-js (issue 23, decision 110), through the shipped and
 * the newest postgrest-js, each given nothing but the URL and a key.
 */
import { createHash } from 'node:crypto';
import { PostgrestClient as ShippedPostgrest } from '@supabase/postgrest-js';
import { PostgrestClient as LatestPostgrest } from 'postgrest-js-latest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST_FIXTURE_SQL } from '#tests/support/rest-fixture-schema.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';

let server: ServerProcess;

/**
 * Functions of a single unnamed parameter that takes the body as sent (PostgREST 12+'s RawPay), and one
 * returning a table's rows (whose computed fields its results offer).
 */
const RAW_BODY_SQL = `
create function public.echo_text(text) returns text language sql immutable as $$ select 'got ' || $1 $$;
create function public.echo_xml(xml) returns text language sql immutable
  as $$ select (xpath('/p/text()', $1))[1]::text $$;
create function public.echo_bytes(bytea) returns text language sql immutable
  as $$ select encode(sha256($1), 'hex') || ':' || length($1) $$;
create function public.raw_twin(text) returns text language sql immutable as $$ select 'text' $$;
create function public.raw_twin(json) returns text language sql immutable as $$ select 'json' $$;
create function public.all_optional(a int default 7) returns int language sql immutable as $$ select a $$;
create function public.needs_name(a text) returns text language sql immutable as $$ select a $$;
create function public.poly_first(a anyelement, b anyelement) returns anyelement language sql immutable
  as $$ select coalesce(a, b) $$;
create function public.poly_count(a anyarray) returns int language sql immutable as $$ select cardinality(a) $$;
create function public.directors_named(prefix text) returns setof public.directors language sql stable
  as $$ select * from public.directors where first_name like prefix || '%' $$;
`;

beforeAll(async () => {
  server = await startServerProcess({}, { sql: REST_FIXTURE_SQL + RAW_BODY_SQL });
});
afterAll(() => server?.close());

const CLIENTS = [
  { release: 'shipped', Postgrest: ShippedPostgrest },
  // The newest release's generics differ; the calls made here are the same in both.
  { release: 'newest', Postgrest: LatestPostgrest as unknown as typeof ShippedPostgrest },
] as const;

describe.each(CLIENTS)('through the $release postgrest-js', ({ release, Postgrest }) => {
  const client = (key: 'anon' | 'service' = 'service') => {
    const token = key === 'anon' ? server.anonKey : server.serviceRoleKey;
    return new Postgrest(`${server.url}/rest/v1`, {
      headers: { apikey: token, Authorization: `Bearer ${token}` },
    });
  };
  const base = release === 'shipped' ? 300 : 400;

  it('single() on no or several rows fails with PostgREST 13 message', async () => {
    const none = await client().from('films').select('id').eq('id', -1).single();
    expect(none.status).toBe(406);
    expect(none.error).toMatchObject({
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 0 rows',
    });
    const several = await client().from('films').select('id').eq('language', 'french').single();
    expect(several.error).toMatchObject({
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 3 rows',
    });
    // maybeSingle() still reads "0 rows" as no row.
    const maybe = await client().from('films').select('id').eq('id', -1).maybeSingle();
    expect(maybe).toMatchObject({ data: null, error: null });
  });

  it('upsert answers 201 when it inserted a row and 200 when it only updated', async () => {
    const created = await client()
      .from('items')
      .upsert({ id: base, name: `item ${base}`, price: 1 })
      .select('id, price');
    expect(created.error).toBeNull();
    expect(created.status).toBe(201);
    const updated = await client()
      .from('items')
      .upsert({ id: base, name: `item ${base}`, price: 2 })
      .select('id, price');
    expect(updated.status).toBe(200);
    expect(updated.data).toEqual([{ id: base, price: 2 }]);
    const minimal = await client()
      .from('items')
      .upsert({ id: base, name: `item ${base}`, price: 3 });
    expect(minimal.status).toBe(200);
    const mixed = await client()
      .from('items')
      .upsert([
        { id: base, name: `item ${base}`, price: 4 },
        { id: base + 1, name: `item ${base + 1}`, price: 4 },
      ]);
    expect(mixed.status).toBe(201);
    const ignored = await client()
      .from('items')
      .upsert({ id: base, name: `item ${base}`, price: 5 }, { ignoreDuplicates: true });
    expect(ignored.status).toBe(201);
    const inserted = await client()
      .from('items')
      .insert({ id: base + 2, name: `item ${base + 2}`, price: 1 });
    expect(inserted.status).toBe(201);
  });
});

describe.each(CLIENTS)('functions through the $release postgrest-js', ({ Postgrest }) => {
  const client = () =>
    new Postgrest(`${server.url}/rest/v1`, {
      headers: { apikey: server.serviceRoleKey, Authorization: `Bearer ${server.serviceRoleKey}` },
    });

  it('counts the rows of a set-returning function with Prefer: count', async () => {
    const exact = await client()
      .rpc('films_by_year', { min_year: 1895 }, { count: 'exact' })
      .select('id')
      .limit(1);
    expect(exact.error).toBeNull();
    expect(exact.count).toBe(3);
    expect(exact.data).toHaveLength(1);
    expect(exact.status).toBe(206);
    const head = await client().rpc('film_titles', {}, { count: 'exact', head: true });
    expect(head.error).toBeNull();
    expect(head.count).toBe(5);
    expect(head.data).toBeNull();
    const planned = await client().rpc('films_by_year', {}, { count: 'planned' });
    expect(planned.error).toBeNull();
    expect(typeof planned.count).toBe('number');
    const estimated = await client().rpc('films_by_year', {}, { count: 'estimated' });
    expect(estimated.count).toBe(4);
  });

  it('answers a polymorphic function with PostgreSQL’s errors, as PostgREST does (it cannot type a value as anyelement)', async () => {
    // A JSON body: the arguments are read by json_to_record, which refuses a pseudo-type column.
    const body = await client().rpc('poly_first', { a: 1, b: 2 });
    expect(body.status).toBe(400);
    expect(body.error).toMatchObject({ code: '42P16', message: 'column "a" has pseudo-type anyelement' });
    const array = await client().rpc('poly_count', { a: [1, 2] });
    expect(array.error).toMatchObject({ code: '42P16', message: 'column "a" has pseudo-type anyarray' });
    // The query string: each value of unknown type, cast to the parameter's type.
    const query = await client().rpc('poly_first', { a: 1, b: 2 }, { get: true });
    expect(query.status).toBe(400);
    expect(query.error).toMatchObject({
      code: '42804',
      message: 'could not determine polymorphic type because input has type unknown',
    });
  });

  it('chooses overloads by argument names, and lists the candidates in PostgREST order', async () => {
    expect((await client().rpc('overloaded', { a: 1 })).data).toBe('one');
    expect((await client().rpc('overloaded', { a: 1, b: 2 })).data).toBe('two');
    expect((await client().rpc('pick', { a: 'x', b: 2 })).data).toBe('text');
    const ambiguous = await client().rpc('pick', { a: 1 });
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error).toMatchObject({
      code: 'PGRST203',
      message:
        'Could not choose the best candidate function between: public.pick(a => integer), public.pick(a => text, b => integer)',
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    });
    expect((await client().rpc('twin', { x: 'a' })).data).toBe('x');
    const twins = await client().rpc('twin');
    expect(twins.error).toMatchObject({
      code: 'PGRST203',
      message:
        'Could not choose the best candidate function between: public.twin(x => text), public.twin(y => integer)',
    });
  });
});

describe.each(CLIENTS)('embeds and computed fields through the $release postgrest-js', ({ Postgrest }) => {
  const client = () =>
    new Postgrest(`${server.url}/rest/v1`, {
      headers: { apikey: server.serviceRoleKey, Authorization: `Bearer ${server.serviceRoleKey}` },
    });

  it('selects, filters and orders by a computed field, which * leaves out', async () => {
    const { data, error } = await client()
      .from('directors')
      .select('id, full_name')
      .like('full_name', 'Georges%')
      .order('full_name');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 3, full_name: 'Georges Méliès' }]);
    const star = await client().from('directors').select('*').eq('id', 1).single();
    expect(star.data).toEqual({ id: 1, first_name: 'Louis', last_name: 'Lumière' });
    const embedded = await client().from('films').select('title, directors(full_name)').eq('id', 4).single();
    expect(embedded.data).toEqual({
      title: 'A Trip to the Moon',
      directors: { full_name: 'Georges Méliès' },
    });
  });

  it("selects a computed field of a function's rows, which * leaves out there too", async () => {
    const { data, error } = await client()
      .rpc('directors_named', { prefix: 'Georges' })
      .select('id, full_name')
      .order('full_name');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 3, full_name: 'Georges Méliès' }]);
    const star = await client().rpc('directors_named', { prefix: 'Louis' }).select('*');
    expect(star.data).toEqual([{ id: 1, first_name: 'Louis', last_name: 'Lumière' }]);
    const filtered = await client()
      .rpc('directors_named', { prefix: '' })
      .select('id')
      .like('full_name', '%Lumière');
    expect(filtered.error).toBeNull();
    expect(filtered.data).toEqual([{ id: 1 }]);
  });

  it('embeds through functions: a self-referencing table both ways', async () => {
    const { data, error } = await client()
      .from('employees')
      .select('name, supervisor(name), supervisees(name)')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Taylor', supervisor: null, supervisees: [{ name: 'Johnson' }, { name: 'Miller' }] },
      { name: 'Johnson', supervisor: { name: 'Taylor' }, supervisees: [] },
      { name: 'Miller', supervisor: { name: 'Taylor' }, supervisees: [] },
    ]);
    const inner = await client().from('employees').select('name, supervisor!inner(name)').order('id');
    expect(inner.data).toEqual([
      { name: 'Johnson', supervisor: { name: 'Taylor' } },
      { name: 'Miller', supervisor: { name: 'Taylor' } },
    ]);
  });

  it('disambiguates with !hint and !inner, and embeds many-to-many through the junction', async () => {
    const ambiguous = await client().from('orders').select('name, addresses(city)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error).toMatchObject({ code: 'PGRST201' });
    const hinted = await client()
      .from('orders')
      .select('name, billing:addresses!billing(city), shipping:addresses!shipping_address_id(city)')
      .eq('id', 1)
      .single();
    expect(hinted.data).toEqual({ name: 'Camera', billing: { city: 'Lyon' }, shipping: { city: 'Paris' } });
    const many = await client()
      .from('films')
      .select('title, actors!inner(first_name)')
      .eq('actors.first_name', 'Bleuette');
    expect(many.error).toBeNull();
    expect(many.data).toEqual([{ title: 'A Trip to the Moon', actors: [{ first_name: 'Bleuette' }] }]);
  });
});

describe.each(CLIENTS)('spread through the $release postgrest-js', ({ Postgrest }) => {
  const client = () =>
    new Postgrest(`${server.url}/rest/v1`, {
      headers: { apikey: server.serviceRoleKey, Authorization: `Bearer ${server.serviceRoleKey}` },
    });

  it('spreads a to-many embed as one array per column, many-to-many too', async () => {
    const { data, error } = await client()
      .from('directors')
      .select('last_name, ...films(title, year)')
      .in('id', [3, 4])
      .order('id')
      .order('id', { referencedTable: 'films' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { last_name: 'Méliès', title: ['The Haunted Castle', 'A Trip to the Moon'], year: [1896, 1902] },
      { last_name: 'Guy', title: [], year: [] },
    ]);
    const actors = await client()
      .from('films')
      .select('title, ...actors!inner(actor:first_name)')
      .eq('id', 3)
      .single();
    expect(actors.data).toEqual({ title: 'The Haunted Castle', actor: ['Jehanne'] });
    const inner = await client().from('directors').select('id, ...films!inner(title)').order('id');
    expect(inner.data?.map((row) => (row as { id: number }).id)).toEqual([1, 2, 3]);
  });
});

describe('a body for a single unnamed parameter (PostgREST 12+: text, xml, bytea, json)', () => {
  // postgrest-js sends JSON only: the other media types are what webhooks and other clients send.
  const call = (fn: string, contentType: string, body: string | Uint8Array) =>
    fetch(`${server.url}/rest/v1/rpc/${fn}`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        Authorization: `Bearer ${server.anonKey}`,
        'Content-Type': contentType,
      },
      body,
    });

  it('hands text/plain to a text parameter, text/xml to an xml one, bytes to a bytea one', async () => {
    const text = await call('echo_text', 'text/plain; charset=utf-8', 'héllo, {"not": "json"}');
    expect(text.status).toBe(200);
    expect(await text.json()).toBe('got héllo, {"not": "json"}');
    expect(await (await call('echo_text', 'text/plain', '')).json()).toBe('got ');

    const xml = await call('echo_xml', 'text/xml', '<p>grown and tested</p>');
    expect(await xml.json()).toBe('grown and tested');
    // The body is read as XML by the database: a malformed document is the caller's error.
    const malformed = await call('echo_xml', 'text/xml', '<p>unclosed');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: '2200N' });

    // Every byte value, a NUL and invalid UTF-8 among them: they arrive as sent.
    const bytes = new Uint8Array(512).map((_, i) => (i * 7) % 256);
    const digest = createHash('sha256').update(bytes).digest('hex');
    const binary = await call('echo_bytes', 'application/octet-stream', bytes);
    expect(binary.status).toBe(200);
    expect(await binary.json()).toBe(`${digest}:512`);
  });

  it('chooses between overloads by the media type, and lets a raw body call a function whose parameters all have defaults', async () => {
    expect(await (await call('raw_twin', 'text/plain', 'x')).json()).toBe('text');
    expect(await (await call('raw_twin', 'application/json', '{"any": 1}')).json()).toBe('json');
    expect(await (await call('all_optional', 'text/plain', 'ignored')).json()).toBe(7);
  });

  it('answers PGRST202 naming the one parameter that could have taken the body, with no hint', async () => {
    const wrongType = await call('echo_text', 'application/octet-stream', new Uint8Array([1, 2, 3]));
    expect(wrongType.status).toBe(404);
    expect(await wrongType.json()).toEqual({
      code: 'PGRST202',
      message: 'Could not find the function public.echo_text in the schema cache',
      details:
        'Searched for the function public.echo_text with a single unnamed bytea parameter, but no matches were found in the schema cache.',
      hint: null,
    });
    const named = await call('needs_name', 'text/xml', '<p/>');
    expect(await named.json()).toMatchObject({
      code: 'PGRST202',
      details:
        'Searched for the function public.needs_name with a single unnamed xml parameter, but no matches were found in the schema cache.',
    });
    // Bytes written to a table are refused as before: only a function's parameter takes a raw body.
    const table = await fetch(`${server.url}/rest/v1/directors`, {
      method: 'POST',
      headers: {
        apikey: server.serviceRoleKey,
        Authorization: `Bearer ${server.serviceRoleKey}`,
        'Content-Type': 'application/octet-stream',
      },
      body: new Uint8Array([1]),
    });
    expect(table.status).toBe(400);
    expect(await table.json()).toMatchObject({
      code: 'PGRST102',
      message: 'Content-Type not acceptable: application/octet-stream',
    });
  });

  it('keeps JSON of any shape going to a single unnamed json parameter', async () => {
    const array = await call('echo', 'application/json', '[1, "two", {"three": 3}]');
    expect(await array.json()).toEqual([1, 'two', { three: 3 }]);
  });
});
