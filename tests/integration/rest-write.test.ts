// @databases: both — the data API's generated SQL for writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installRestFixture, type RestReply, restHttp } from '#tests/support/rest-fixture.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

/** Writes over raw HTTP: insert, bulk insert, upsert, update, delete with every Prefer variant. */

let server: TestServer;
let http: ReturnType<typeof restHttp>;
let admin: ReturnType<typeof restHttp>;
beforeAll(async () => {
  server = await startTestServer();
  await installRestFixture(server);
  http = restHttp(server);
  admin = restHttp(server, server.serviceRoleKey);
});
afterAll(() => server?.close());

const rows = async (sql: string) => (await server.db.query(sql)).rows;
const expectError = (reply: RestReply, status: number, code: string) => {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body).toMatchObject({ code });
};

describe('insert', () => {
  it('return=minimal (the default): 201, no body', async () => {
    const reply = await http('POST', '/items', { body: { id: 100, name: 'a100', price: 1 } });
    expect(reply.status).toBe(201);
    expect(reply.text).toBe('');
    expect(reply.headers.get('content-range')).toBe('*/*');
    expect(reply.headers.get('preference-applied')).toBeNull();
    expect(await rows('select name from items where id = 100')).toEqual([{ name: 'a100' }]);
  });

  it('return=representation: 201 with the rows, shaped by select (embeds too)', async () => {
    const reply = await http('POST', '/films?select=id,title,director:directors(last_name)', {
      body: { id: 50, title: 'The Cabinet', director_id: 4 },
      headers: { prefer: 'return=representation' },
    });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('preference-applied')).toBe('return=representation');
    expect(reply.body).toEqual([{ id: 50, title: 'The Cabinet', director: { last_name: 'Guy' } }]);
  });

  it('return=headers-only: 201 with the Location of the new row', async () => {
    const reply = await http('POST', '/films', {
      body: { title: 'Located' },
      headers: { prefer: 'return=headers-only' },
    });
    expect(reply.status).toBe(201);
    expect(reply.text).toBe('');
    const [row] = await rows("select id from films where title = 'Located'");
    expect(reply.headers.get('location')).toBe(`/films?id=eq.${(row as { id: number }).id}`);
  });

  it('return=representation as CSV', async () => {
    const reply = await http('POST', '/items?select=id,name', {
      body: { id: 114, name: 'csv, please', price: 1 },
      headers: { prefer: 'return=representation', accept: 'text/csv' },
    });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(reply.text).toBe('id,name\n114,"csv, please"');
  });

  it('bulk insert with count=exact', async () => {
    const reply = await http('POST', '/items', {
      body: [
        { id: 101, name: 'a101', price: 1 },
        { id: 102, name: 'a102', price: 2 },
      ],
      headers: { prefer: 'count=exact' },
    });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('content-range')).toBe('*/2');
  });

  it('bulk insert needs matching keys unless columns= is given', async () => {
    const mismatch = await http('POST', '/items', {
      body: [
        { id: 103, name: 'a103', price: 1 },
        { id: 104, name: 'a104' },
      ],
    });
    expectError(mismatch, 400, 'PGRST102');
    expect(mismatch.body).toMatchObject({ message: 'All object keys must match' });
  });

  it('columns= picks the keys inserted and ignores the rest', async () => {
    const reply = await http('POST', '/items?columns=id,name,price&select=id,name,qty,note', {
      body: [{ id: 105, name: 'a105', price: 1, qty: 99, note: 'ignored', bogus: true }],
      headers: { prefer: 'return=representation' },
    });
    expect(reply.body).toEqual([{ id: 105, name: 'a105', qty: 1, note: 'n/a' }]);
    expectError(await http('POST', '/items?columns=id,nope', { body: [{ id: 106 }] }), 400, 'PGRST204');
  });

  it('missing=default gives missing keys their column default, explicit nulls stay null', async () => {
    const reply = await http('POST', '/items?columns=id,name,price,qty,note&select=id,qty,note&order=id', {
      body: [
        { id: 107, name: 'a107', price: 1 },
        { id: 108, name: 'a108', price: 1, qty: 4, note: null },
        { id: 109, name: 'a109', price: 1, note: 'x' },
      ],
      headers: { prefer: 'return=representation,missing=default' },
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.headers.get('preference-applied')).toBe('return=representation, missing=default');
    expect(reply.body).toEqual([
      { id: 107, qty: 1, note: 'n/a' },
      { id: 108, qty: 4, note: null },
      { id: 109, qty: 1, note: 'x' },
    ]);
    // an identity column takes its default too
    const films = await http('POST', '/films?columns=id,title&select=title', {
      body: [{ title: 'Identity default' }],
      headers: { prefer: 'return=representation,missing=default' },
    });
    expect(films.body).toEqual([{ title: 'Identity default' }]);
  });

  it('an empty object inserts a row of defaults; an empty array inserts nothing', async () => {
    const defaults = await http('POST', '/drop_box', { body: {} });
    expectError(defaults, 400, '23502');
    const none = await http('POST', '/items', { body: [], headers: { prefer: 'return=representation' } });
    expect(none.status).toBe(201);
    expect(none.body).toEqual([]);
  });

  it('CSV and form bodies', async () => {
    const csv = await http('POST', '/items?select=id,name,note', {
      body: 'id,name,price,note\n110,"with, comma",1.5,NULL\n111,plain,2,\n',
      headers: { 'content-type': 'text/csv', prefer: 'return=representation' },
    });
    expect(csv.status, csv.text).toBe(201);
    expect(csv.body).toEqual([
      { id: 110, name: 'with, comma', note: null },
      { id: 111, name: 'plain', note: '' },
    ]);
    const form = await http('POST', '/items?select=id,name', {
      body: 'id=112&name=form+item&price=3',
      headers: { 'content-type': 'application/x-www-form-urlencoded', prefer: 'return=representation' },
    });
    expect(form.body).toEqual([{ id: 112, name: 'form item' }]);
  });

  it('rejects bodies that are not JSON objects, and other content types', async () => {
    for (const body of ['{not json', '', '"just a string"', '[1, 2]', 'null']) {
      expectError(
        await http('POST', '/items', { body, headers: { 'content-type': 'application/json' } }),
        400,
        'PGRST102',
      );
    }
    const xml = await http('POST', '/items', {
      body: '<a/>',
      headers: { 'content-type': 'application/xml' },
    });
    expectError(xml, 400, 'PGRST102');
    expect(xml.body).toMatchObject({ message: 'Content-Type not acceptable: application/xml' });
  });

  it('keeps numbers exactly as sent', async () => {
    await admin('POST', '/films', { body: '{"id": 60, "title": "Precise", "rating": 12.3, "year": 2000}' });
    expect(await rows('select rating::text from films where id = 60')).toEqual([{ rating: '12.3' }]);
    const big = await http('POST', '/items', { body: '{"id": 9007199254740993, "name": "big", "price": 1}' });
    expectError(big, 400, '22003');
  });

  it('stores SQL and markup in values as plain data', async () => {
    const evil = `'); drop table films; -- <script>alert(1)</script> "\\`;
    const reply = await http('POST', '/items?select=name', {
      body: { id: 113, name: evil, price: 1 },
      headers: { prefer: 'return=representation' },
    });
    expect(reply.body).toEqual([{ name: evil }]);
    const found = await http('GET', `/items?select=id&name=eq.${encodeURIComponent(evil)}`);
    expect(found.body).toEqual([{ id: 113 }]);
    expect((await rows('select count(*)::int as n from films'))[0]).toMatchObject({ n: expect.any(Number) });
  });
});

describe('upsert', () => {
  it('merge-duplicates on the primary key', async () => {
    const reply = await http('POST', '/items?select=id,price', {
      body: [
        { id: 1, name: 'reel', price: 10 },
        { id: 120, name: 'a120', price: 5 },
      ],
      headers: { prefer: 'resolution=merge-duplicates,return=representation' },
    });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('preference-applied')).toBe(
      'return=representation, resolution=merge-duplicates',
    );
    expect(reply.body).toEqual([
      { id: 1, price: 10 },
      { id: 120, price: 5 },
    ]);
  });

  it('on_conflict names another unique key', async () => {
    await http('POST', '/items?on_conflict=name', {
      body: { id: 999, name: 'lens', price: 42 },
      headers: { prefer: 'resolution=merge-duplicates' },
    });
    expect(await rows("select id, price::text from items where name = 'lens'")).toEqual([
      { id: 999, price: '42.00' },
    ]);
  });

  it('ignore-duplicates keeps the existing row', async () => {
    const reply = await http('POST', '/items?select=id', {
      body: [
        { id: 1, name: 'reel', price: 0 },
        { id: 121, name: 'a121', price: 0 },
      ],
      headers: { prefer: 'resolution=ignore-duplicates,return=representation' },
    });
    expect(reply.body).toEqual([{ id: 121 }]);
    expect(await rows('select price::text from items where id = 1')).toEqual([{ price: '10.00' }]);
  });

  it('answers upsert mistakes with 4xx', async () => {
    expectError(
      await http('POST', '/items?on_conflict=qty', {
        body: { id: 1, name: 'x', price: 1 },
        headers: { prefer: 'resolution=merge-duplicates' },
      }),
      400,
      '42P10',
    );
    expectError(
      await http('POST', '/items?on_conflict=nope', {
        body: { id: 1, name: 'x', price: 1 },
        headers: { prefer: 'resolution=merge-duplicates' },
      }),
      400,
      '42703',
    );
    // the same row twice in one upsert
    expectError(
      await http('POST', '/items', {
        body: [
          { id: 130, name: 'a130', price: 1 },
          { id: 130, name: 'a130', price: 2 },
        ],
        headers: { prefer: 'resolution=merge-duplicates' },
      }),
      400,
      '21000',
    );
  });
});

describe('update', () => {
  it('return=minimal answers 204; representation 200 with the rows', async () => {
    const minimal = await http('PATCH', '/items?id=eq.100', { body: { note: 'first' } });
    expect(minimal.status).toBe(204);
    expect(minimal.headers.get('content-range')).toBe('0-0/*');
    const full = await http('PATCH', '/items?id=in.(100,101)&select=id,note&order=id', {
      body: { note: 'second' },
      headers: { prefer: 'return=representation,count=exact' },
    });
    expect(full.status).toBe(200);
    expect(full.headers.get('content-range')).toBe('0-1/2');
    expect(full.body).toEqual([
      { id: 100, note: 'second' },
      { id: 101, note: 'second' },
    ]);
  });

  it('updates nothing when no row matches (still a success)', async () => {
    const reply = await http('PATCH', '/items?id=eq.-5', {
      body: { note: 'x' },
      headers: { prefer: 'return=representation' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([]);
    expect(reply.headers.get('content-range')).toBe('*/*');
  });

  it('a single-object Accept with several rows is PGRST116 and changes nothing', async () => {
    const reply = await http('PATCH', '/items?id=in.(100,101)', {
      body: { note: 'third' },
      headers: { accept: 'application/vnd.pgrst.object+json', prefer: 'return=representation' },
    });
    expectError(reply, 406, 'PGRST116');
    expect(await rows('select note from items where id in (100, 101)')).toEqual([
      { note: 'second' },
      { note: 'second' },
    ]);
  });

  it('max-affected with handling=strict refuses and rolls back; lenient ignores it', async () => {
    const strict = await http('PATCH', '/items?id=in.(100,101)', {
      body: { note: 'fourth' },
      headers: { prefer: 'handling=strict,max-affected=1' },
    });
    expectError(strict, 400, 'PGRST124');
    expect(strict.body).toMatchObject({ details: 'The query affects 2 rows' });
    expect(await rows("select count(*)::int as n from items where note = 'fourth'")).toEqual([{ n: 0 }]);
    const lenient = await http('PATCH', '/items?id=in.(100,101)', {
      body: { note: 'fourth' },
      headers: { prefer: 'max-affected=1' },
    });
    expect(lenient.status).toBe(204);
  });

  it('limit with order updates only those rows', async () => {
    await http('PATCH', '/items?id=in.(100,101,102)&order=id.desc&limit=2', { body: { note: 'limited' } });
    expect(await rows('select id, note from items where id in (100, 101, 102) order by id')).toEqual([
      { id: 100, note: 'fourth' },
      { id: 101, note: 'limited' },
      { id: 102, note: 'limited' },
    ]);
  });

  it('embedded filters shape the representation, not the rows updated', async () => {
    const reply = await http('PATCH', '/films?id=eq.3&select=id,roles(character)&roles.character=eq.nobody', {
      body: { language: 'silent' },
      headers: { prefer: 'return=representation' },
    });
    expect(reply.body).toEqual([{ id: 3, roles: [] }]);
    expect(await rows('select language from films where id = 3')).toEqual([{ language: 'silent' }]);
  });

  it('answers mistakes: unknown column, array body, wrong type', async () => {
    expectError(await http('PATCH', '/items?id=eq.1', { body: { colour: 'red' } }), 400, 'PGRST204');
    expectError(await http('PATCH', '/items?id=eq.1', { body: [{ note: 'x' }] }), 400, 'PGRST102');
    expectError(await http('PATCH', '/items?id=eq.1', { body: { qty: 'many' } }), 400, '22P02');
    expectError(await http('PATCH', '/items?id=eq.1', { body: { qty: null } }), 400, '23502');
  });

  it('an empty object changes nothing', async () => {
    const reply = await http('PATCH', '/items?id=eq.1&select=id', {
      body: {},
      headers: { prefer: 'return=representation' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([{ id: 1 }]);
  });
});

describe('delete', () => {
  it('deletes the matching rows; representation and count', async () => {
    const reply = await http('DELETE', '/items?id=in.(107,108)&select=id&order=id', {
      headers: { prefer: 'return=representation,count=exact' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([{ id: 107 }, { id: 108 }]);
    expect(reply.headers.get('content-range')).toBe('0-1/2');
    const minimal = await http('DELETE', '/items?id=eq.109');
    expect(minimal.status).toBe(204);
    expect(await rows('select id from items where id in (107, 108, 109)')).toEqual([]);
  });

  it('limit with order deletes only those rows', async () => {
    await http('DELETE', '/items?id=in.(110,111,112)&order=id&limit=1');
    expect(await rows('select id from items where id in (110, 111, 112) order by id')).toEqual([
      { id: 111 },
      { id: 112 },
    ]);
  });

  it('max-affected with handling=strict keeps the rows', async () => {
    const reply = await http('DELETE', '/items?id=in.(111,112)', {
      headers: { prefer: 'handling=strict, max-affected=1' },
    });
    expectError(reply, 400, 'PGRST124');
    expect(await rows('select id from items where id in (111, 112) order by id')).toEqual([
      { id: 111 },
      { id: 112 },
    ]);
  });

  it('refuses to update or delete every row without a filter (as pg-safeupdate on Supabase)', async () => {
    const remove = await http('DELETE', '/items');
    expectError(remove, 400, '21000');
    expect(remove.body).toMatchObject({ message: 'DELETE requires a WHERE clause' });
    expectError(await http('PATCH', '/items', { body: { note: 'all' } }), 400, '21000');
    expect((await http('DELETE', '/items?id=gte.-1000000&name=eq.nothing')).status).toBe(204);
  });

  it('a foreign key violation is 23503 with status 409', async () => {
    expectError(await http('DELETE', '/directors?id=eq.1'), 409, '23503');
  });

  it('deletes through embeds on cascade and answers 204', async () => {
    const reply = await http('DELETE', '/films?id=eq.50');
    expect(reply.status).toBe(204);
  });
});

describe('a failed request leaves nothing behind', () => {
  it('insert whose read-back is refused by RLS is rolled back', async () => {
    const refused = await http('POST', '/drop_box', {
      body: { message: 'hello' },
      headers: { prefer: 'return=representation' },
    });
    expectError(refused, 401, '42501');
    expect(await rows("select count(*)::int as n from drop_box where message = 'hello'")).toEqual([{ n: 0 }]);
    // without a read-back the same insert is allowed (insert-only table)
    const minimal = await http('POST', '/drop_box', { body: { message: 'hello' } });
    expect(minimal.status).toBe(201);
    expect(await rows("select count(*)::int as n from drop_box where message = 'hello'")).toEqual([{ n: 1 }]);
  });

  it('a bulk insert failing on one row inserts none', async () => {
    const reply = await http('POST', '/items', {
      body: [
        { id: 140, name: 'a140', price: 1 },
        { id: 141, name: 'a141', price: -1 },
      ],
    });
    expectError(reply, 400, '23514');
    expect(await rows('select id from items where id in (140, 141)')).toEqual([]);
  });

  it('an insert with a single-object Accept and two rows inserts none', async () => {
    const reply = await http('POST', '/items', {
      body: [
        { id: 142, name: 'a142', price: 1 },
        { id: 143, name: 'a143', price: 1 },
      ],
      headers: { accept: 'application/vnd.pgrst.object+json', prefer: 'return=representation' },
    });
    expectError(reply, 406, 'PGRST116');
    expect(await rows('select id from items where id in (142, 143)')).toEqual([]);
  });

  it('a body over the limit is 413', async () => {
    const huge = JSON.stringify({ id: 150, name: 'x'.repeat(11 * 1024 * 1024), price: 1 });
    const reply = await http('POST', '/items', { body: huge });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ code: 'PGRST102' });
  });
});

describe('tx=rollback', () => {
  it('answers as usual, then undoes the write', async () => {
    const reply = await http('POST', '/items', {
      body: { id: 900, name: 'dry run', price: 1 },
      headers: { prefer: 'return=representation, tx=rollback' },
    });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('preference-applied')).toBe('return=representation, tx=rollback');
    expect(reply.body).toEqual([expect.objectContaining({ id: 900, name: 'dry run' })]);
    expect(await rows('select 1 from items where id = 900')).toEqual([]);

    const update = await http('PATCH', '/items?id=eq.100', {
      body: { name: 'renamed' },
      headers: { prefer: 'count=exact, tx=rollback' },
    });
    expect(update.status).toBe(204);
    expect(update.headers.get('content-range')).toBe('0-0/1');
    expect(await rows('select name from items where id = 100')).toEqual([{ name: 'a100' }]);
  });

  it('still reports errors, and tx=commit is the default behaviour', async () => {
    expectError(
      await http('POST', '/items', {
        body: { id: 100, name: 'dup', price: 1 },
        headers: { prefer: 'tx=rollback' },
      }),
      409,
      '23505',
    );
    const reply = await http('POST', '/items', {
      body: { id: 901, name: 'kept', price: 1 },
      headers: { prefer: 'tx=commit' },
    });
    expect(reply.status).toBe(201);
    expect(await rows('select name from items where id = 901')).toEqual([{ name: 'kept' }]);
  });
});
