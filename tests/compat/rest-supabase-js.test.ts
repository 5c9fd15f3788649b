// @databases: both — the data API's generated SQL.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient } from '#tests/support/clients.ts';
import { ALICE, BOB, REST_FIXTURE_SQL } from '#tests/support/rest-fixture-schema.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { signedInUser } from '#tests/support/users.ts';

/**
 * The data API through the official client, as the web app uses it: every call shape of
 * `supabase.from(...)` and `supabase.rpc(...)` the product needs, answered as PostgREST answers.
 * The film schema (tests/support/rest-fixture-schema.ts) is in the database before the server starts,
 * as a project's own migration would put it; alice and bob are accounts with the ids its rows name.
 */

let server: ServerProcess;
let anon: SupabaseClient;
let service: SupabaseClient;
let alice: SupabaseClient;
let bob: SupabaseClient;

beforeAll(async () => {
  server = await startServerProcess({}, { sql: REST_FIXTURE_SQL });
  anon = anonClient(server);
  service = adminClient(server);
  alice = (await signedInUser(server, { id: ALICE, email: '1@example.com' })).client;
  bob = (await signedInUser(server, { id: BOB, email: '2@example.com' })).client;
});
afterAll(() => server?.close());

describe('select', () => {
  it('reads rows with eq, order and limit', async () => {
    const { data, error, status } = await anon
      .from('films')
      .select('id, title')
      .eq('language', 'french')
      .order('year', { ascending: false })
      .limit(2);
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([
      { id: 4, title: 'A Trip to the Moon' },
      { id: 3, title: 'The Haunted Castle' },
    ]);
  });

  it('single() returns one object', async () => {
    const { data, error } = await anon.from('films').select('title, year').eq('id', 4).single();
    expect(error).toBeNull();
    expect(data).toEqual({ title: 'A Trip to the Moon', year: 1902 });
  });

  it('single() on no rows is PGRST116 with status 406', async () => {
    const { data, error, status } = await anon.from('films').select('*').eq('id', 999).single();
    expect(data).toBeNull();
    expect(status).toBe(406);
    expect(error).toMatchObject({
      code: 'PGRST116',
      details: 'The result contains 0 rows',
      message: 'Cannot coerce the result to a single JSON object',
    });
  });

  it('single() on several rows is PGRST116', async () => {
    const { error } = await anon.from('films').select('id').eq('language', 'french').single();
    expect(error).toMatchObject({ code: 'PGRST116', details: 'The result contains 3 rows' });
  });

  it('maybeSingle() gives null for no rows and the row for one', async () => {
    const none = await anon.from('films').select('id').eq('id', 999).maybeSingle();
    expect(none.error).toBeNull();
    expect(none.data).toBeNull();
    const one = await anon.from('films').select('id').eq('id', 2).maybeSingle();
    expect(one.data).toEqual({ id: 2 });
  });

  it('embeds many-to-one, one-to-many and many-to-many resources with aliases', async () => {
    const { data, error } = await anon
      .from('films')
      .select('title, director:directors(last_name), actors(first_name), roles(character)')
      .eq('id', 3)
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({
      title: 'The Haunted Castle',
      director: { last_name: 'Méliès' },
      actors: [{ first_name: 'Jehanne' }],
      roles: [{ character: 'Phantom' }],
    });
  });

  it('filters on an embedded resource and with !inner', async () => {
    const { data } = await anon
      .from('films')
      .select('id, actors!inner(last_name)')
      .eq('actors.first_name', 'Georges');
    expect(data).toEqual([{ id: 4, actors: [{ last_name: 'Méliès' }] }]);
  });

  it('orders and limits an embedded resource', async () => {
    const { data } = await anon
      .from('directors')
      .select('id, films(id)')
      .eq('id', 3)
      .order('id', { referencedTable: 'films', ascending: false })
      .limit(1, { referencedTable: 'films' });
    expect(data).toEqual([{ id: 3, films: [{ id: 4 }] }]);
  });

  it('supports the filter helpers', async () => {
    const ids = async (query: PromiseLike<{ data: { id: number }[] | null; error: unknown }>) => {
      const { data, error } = await query;
      expect(error).toBeNull();
      return (data ?? []).map((row) => row.id).sort();
    };
    const films = () => anon.from('films').select('id');
    expect(await ids(films().neq('language', 'french'))).toEqual([2]);
    expect(await ids(films().gt('year', 1895))).toEqual([3, 4]);
    expect(await ids(films().gte('year', 1896).lt('year', 1902))).toEqual([3]);
    expect(await ids(films().lte('rating', 6.5))).toEqual([2]);
    expect(await ids(films().like('title', '%Moon%'))).toEqual([4]);
    expect(await ids(films().ilike('title', '%haunted%'))).toEqual([3]);
    expect(await ids(films().is('year', null))).toEqual([5]);
    expect(await ids(films().in('id', [1, 3, 42]))).toEqual([1, 3]);
    expect(await ids(films().in('title', ['Untitled, (draft)']))).toEqual([5]);
    expect(await ids(films().contains('tags', ['short', 'horror']))).toEqual([3]);
    expect(await ids(films().containedBy('tags', ['adventure', 'fantasy', 'x']))).toEqual([4, 5]);
    expect(await ids(films().overlaps('tags', ['documentary', 'fantasy']))).toEqual([1, 4]);
    expect(await ids(films().contains('meta', { color: true }))).toEqual([4]);
    expect(await ids(films().textSearch('title', 'moon'))).toEqual([4]);
    expect(
      await ids(films().textSearch('title', 'haunted castle', { type: 'plain', config: 'english' })),
    ).toEqual([3]);
    expect(await ids(films().textSearch('title', 'trip moon', { type: 'websearch' }))).toEqual([4]);
    expect(await ids(films().textSearch('search', 'sound film', { type: 'phrase' }))).toEqual([2]);
    expect(await ids(films().not('year', 'is', null).not('language', 'eq', 'french'))).toEqual([2]);
    expect(await ids(films().or('id.eq.1,year.gt.1900'))).toEqual([1, 4]);
    expect(await ids(films().or('and(year.gt.1894,year.lt.1897),title.eq."Untitled, (draft)"'))).toEqual([
      1, 3, 5,
    ]);
    expect(await ids(films().match({ language: 'french', year: 1896 }))).toEqual([3]);
    expect(await ids(films().filter('year', 'in', '(1894,1902)'))).toEqual([2, 4]);
    expect(await ids(films().likeAnyOf('title', ['%Moon%', '%Castle%']))).toEqual([3, 4]);
    expect(await ids(films().ilikeAllOf('title', ['%the%', '%moon%']))).toEqual([4]);
    expect(await ids(films().isDistinct('language', 'french'))).toEqual([2, 5]);
    expect(await ids(films().match({ id: 1 }).eq('meta->>minutes', '1'))).toEqual([1]);
  });

  it('pages with range() and counts with count: exact', async () => {
    const { data, count, status } = await anon
      .from('films')
      .select('id', { count: 'exact' })
      .order('id')
      .range(1, 2);
    expect(status).toBe(206);
    expect(count).toBe(5);
    expect(data).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it('counts without rows using head: true', async () => {
    const { data, count, error } = await anon
      .from('films')
      .select('*', { count: 'exact', head: true })
      .eq('language', 'french');
    expect(error).toBeNull();
    expect(data).toBeNull();
    expect(count).toBe(3);
  });

  it('returns CSV', async () => {
    const { data } = await anon.from('directors').select('id,last_name').order('id').limit(2).csv();
    expect(data).toBe('id,last_name\n1,Lumière\n2,Dickson');
  });

  it('strips nulls when asked', async () => {
    const { data } = await anon.from('films').select('id, year, rating').eq('id', 5).stripNulls();
    expect(data).toEqual([{ id: 5 }]);
  });

  it('reads a view and embeds through it', async () => {
    const { data } = await anon.from('film_cards').select('title, directors(last_name)').eq('id', 2).single();
    expect(data).toEqual({
      title: 'The Dickson Experimental Sound Film',
      directors: { last_name: 'Dickson' },
    });
  });

  it('answers an unknown table with PGRST205 and an unknown column with 42703', async () => {
    const table = await anon.from('filmz').select('*');
    expect(table.status).toBe(404);
    expect(table.error).toMatchObject({
      code: 'PGRST205',
      hint: "Perhaps you meant the table 'public.films'",
    });
    const column = await anon.from('films').select('nope');
    expect(column.status).toBe(400);
    expect(column.error).toMatchObject({ code: '42703', message: 'column films.nope does not exist' });
  });
});

describe('writes', () => {
  it('insert().select() returns the new row', async () => {
    const { data, error, status } = await service
      .from('items')
      .insert({ id: 20, name: 'splicer', price: 15 })
      .select()
      .single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual({ id: 20, name: 'splicer', price: 15, qty: 1, note: 'n/a' });
  });

  it('insert() without select() returns nothing', async () => {
    const { data, error, status } = await service.from('items').insert({ id: 21, name: 'gate', price: 1 });
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toBeNull();
  });

  it('bulk insert with defaultToNull: false uses column defaults for missing keys', async () => {
    const { data, error } = await service
      .from('items')
      .insert(
        [
          { id: 22, name: 'a', price: 1 },
          { id: 23, name: 'b', price: 2, qty: 9, note: null },
        ],
        { defaultToNull: false },
      )
      .select('id, qty, note')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 22, qty: 1, note: 'n/a' },
      { id: 23, qty: 9, note: null },
    ]);
  });

  it('bulk insert by default sends nulls for missing keys', async () => {
    const { error } = await service.from('items').insert([
      { id: 24, name: 'c', price: 1, qty: 2 },
      { id: 25, name: 'd', price: 1 },
    ]);
    // qty is not null: the second row's missing qty becomes null and the whole insert fails
    expect(error).toMatchObject({ code: '23502' });
    const { count } = await service
      .from('items')
      .select('*', { count: 'exact', head: true })
      .in('id', [24, 25]);
    expect(count).toBe(0);
  });

  it('a duplicate key is 23505 with status 409', async () => {
    const { error, status } = await service.from('items').insert({ id: 1, name: 'dup', price: 1 });
    expect(status).toBe(409);
    expect(error).toMatchObject({ code: '23505', details: 'Key (id)=(1) already exists.' });
  });

  it('upsert merges on the primary key and on another unique column', async () => {
    const first = await service
      .from('items')
      .upsert({ id: 2, name: 'lens', price: 99, qty: 2 })
      .select('id, price, qty')
      .single();
    expect(first.data).toEqual({ id: 2, price: 99, qty: 2 });
    const second = await service
      .from('items')
      .upsert({ id: 2, name: 'lens', price: 101 }, { onConflict: 'name' })
      .select('id, price, qty')
      .single();
    expect(second.error).toBeNull();
    expect(second.data).toEqual({ id: 2, price: 101, qty: 2 });
  });

  it('upsert with ignoreDuplicates leaves existing rows alone', async () => {
    const { data, error } = await service
      .from('items')
      .upsert(
        [
          { id: 1, name: 'reel', price: 0 },
          { id: 30, name: 'new', price: 3 },
        ],
        { ignoreDuplicates: true },
      )
      .select('id, price');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 30, price: 3 }]);
    const { data: reel } = await service.from('items').select('price').eq('id', 1).single();
    expect(reel).toEqual({ price: 9.5 });
  });

  it('update().eq() changes the matching rows and can return them', async () => {
    const { data, error, status } = await service
      .from('items')
      .update({ note: 'checked' })
      .eq('id', 1)
      .select('id, note');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([{ id: 1, note: 'checked' }]);
    const plain = await service.from('items').update({ qty: 4 }).eq('id', 1);
    expect(plain.status).toBe(204);
    expect(plain.error).toBeNull();
  });

  it('update with count reports the rows changed', async () => {
    const { count, error } = await service.from('items').update({ qty: 5 }, { count: 'exact' }).gte('id', 20);
    expect(error).toBeNull();
    expect(count).toBeGreaterThan(0);
  });

  it('delete().eq() removes rows', async () => {
    await service.from('items').insert({ id: 31, name: 'doomed', price: 3 });
    const { data, error } = await service.from('items').delete().eq('id', 31).select('id, name');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 31, name: 'doomed' }]);
    const { data: after } = await service.from('items').select('id').eq('id', 31);
    expect(after).toEqual([]);
  });

  it('a check constraint violation is 23514 with status 400', async () => {
    const { error, status } = await service.from('items').insert({ id: 40, name: 'neg', price: -1 });
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: '23514' });
  });

  it('a wrongly typed value is 22P02 with status 400', async () => {
    const { error, status } = await service.from('items').insert({ id: 'forty', name: 'x', price: 1 });
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: '22P02' });
  });

  it('an unknown column in the body is PGRST204', async () => {
    const { error, status } = await service
      .from('items')
      .insert({ id: 41, name: 'x', price: 1, colour: 'red' });
    expect(status).toBe(400);
    expect(error).toMatchObject({
      code: 'PGRST204',
      message: "Could not find the 'colour' column of 'items' in the schema cache",
    });
  });
});

describe('row-level security', () => {
  it('anon sees public rows only; a user sees their own too', async () => {
    expect((await anon.from('notes').select('id').order('id')).data).toEqual([{ id: 1 }]);
    expect((await alice.from('notes').select('id').order('id')).data).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await bob.from('notes').select('id').order('id')).data).toEqual([{ id: 1 }, { id: 3 }]);
    expect((await service.from('notes').select('id').order('id')).data).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 3 },
    ]);
  });

  it('a user inserts as themselves (owner defaults to auth.uid())', async () => {
    const { data, error } = await alice
      .from('notes')
      .insert({ body: 'new note' })
      .select('owner, body')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ owner: ALICE, body: 'new note' });
  });

  it("inserting another user's row is refused: 403 for a user, 401 for anon", async () => {
    const asBob = await bob.from('notes').insert({ owner: ALICE, body: 'forged' });
    expect(asBob.status).toBe(403);
    expect(asBob.error).toMatchObject({ code: '42501' });
    const asAnon = await anon.from('notes').insert({ owner: ALICE, body: 'forged' });
    expect(asAnon.status).toBe(401);
    expect(asAnon.error).toMatchObject({ code: '42501' });
  });

  it("updating or deleting another user's row changes nothing", async () => {
    const update = await bob.from('notes').update({ body: 'hacked' }).eq('id', 2).select();
    expect(update.data).toEqual([]);
    const remove = await bob.from('notes').delete().eq('id', 2).select();
    expect(remove.data).toEqual([]);
    const { data } = await service.from('notes').select('body').eq('id', 2).single();
    expect(data).toEqual({ body: 'alice private' });
  });

  it('a table the role may not read is 401 for anon and 403 for a user', async () => {
    const asAnon = await anon.from('secrets').select('*');
    expect(asAnon.status).toBe(401);
    expect(asAnon.error).toMatchObject({ code: '42501', message: 'permission denied for table secrets' });
    const asAlice = await alice.from('secrets').select('*');
    expect(asAlice.status).toBe(403);
  });
});

describe('rpc', () => {
  it('calls a scalar function with named arguments (POST and GET)', async () => {
    expect(await anon.rpc('add_them', { a: 2, b: 3 })).toMatchObject({ data: 5, error: null, status: 200 });
    expect(await anon.rpc('add_them', { a: 2, b: 3 }, { get: true })).toMatchObject({ data: 5, error: null });
  });

  it('calls a set-returning function and filters its result', async () => {
    const { data, error } = await anon
      .rpc('films_by_year', { min_year: 1895 })
      .select('id, title')
      .eq('language', 'french')
      .order('id', { ascending: false })
      .limit(2);
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 4, title: 'A Trip to the Moon' },
      { id: 3, title: 'The Haunted Castle' },
    ]);
  });

  it('counts a set-returning function with head: true', async () => {
    const { count, data } = await anon.rpc('search_films', { q: 'the' }, { head: true, count: 'exact' });
    expect(data).toBeNull();
    expect(count).toBe(4);
  });

  it('returns a composite as an object and RETURNS TABLE as rows', async () => {
    expect((await anon.rpc('film_summary', { fid: 3 })).data).toEqual({
      title: 'The Haunted Castle',
      year: 1896,
    });
    expect((await anon.rpc('search_films', { q: 'moon' })).data).toEqual([
      { id: 4, title: 'A Trip to the Moon', year: 1902 },
    ]);
  });

  it('calls a void function (204, no data)', async () => {
    const { data, error, status } = await anon.rpc('do_nothing');
    expect(error).toBeNull();
    expect(status).toBe(204);
    expect(data).toBeNull();
  });

  it('a function raising an exception is P0001 with status 400 and its message', async () => {
    const { error, status } = await anon.rpc('fail', { message: 'No such booking' });
    expect(status).toBe(400);
    expect(error).toMatchObject({
      code: 'P0001',
      message: 'No such booking',
      details: 'It failed on purpose',
      hint: 'Ask for something else',
    });
  });

  it('sees the caller: role, user id, client address', async () => {
    const { data } = await alice.rpc('whoami');
    expect(data).toEqual({ role: 'authenticated', sub: ALICE, ip: '127.0.0.1', method: 'POST' });
  });

  it('an unknown function is PGRST202 with status 404', async () => {
    const { error, status } = await anon.rpc('add_then', { a: 1 });
    expect(status).toBe(404);
    expect(error).toMatchObject({
      code: 'PGRST202',
      hint: 'Perhaps you meant to call the function public.add_them',
    });
  });
});
