import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentedCalls, renderCalls, webCalls } from './web-calls.mjs';

describe('product §calls is the code (issue 38 part 4)', () => {
  it('lists exactly the tables, procedures, server functions and buckets the web app calls', () => {
    expect(
      documentedCalls(),
      'docs/product.md §calls-reference differs from web/src: run node scripts/web-calls.mjs --write',
    ).toBe(renderCalls());
  });

  it('names in its prose only procedures the web app calls', () => {
    const doc = readFileSync('docs/product.md', 'utf8');
    const prose = doc.slice(doc.indexOf('<a id="rpc"></a>'), doc.indexOf('<a id="table-calls"></a>'));
    const named = [...prose.matchAll(/`(\w+)\(/g)].map((match) => match[1] as string);
    expect(named.length).toBeGreaterThan(5);
    const called = [...webCalls().functions.keys()];
    expect(named.filter((name) => !called.includes(name))).toEqual([]);
  });
});

describe('reading the calls from source', () => {
  const root = mkdtempSync(join(tmpdir(), 'web-calls-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  put(
    'supabase/migrations/1_x.sql',
    `create table if not exists public.things (id int);
     create or replace view public.thing_view as select 1;
     create table public.unused (id int);
     create or replace function public.do_a() returns void language sql as $$ $$;
     create or replace function public.do_b() returns void language sql as $$ $$;
     insert into storage.buckets (id, name, public) values ('thing-files', 'thing-files', true);`,
  );
  put('server/functions/routes/thing-sync.ts', '');
  put('server/functions/routes/index.ts', '');
  put(
    'web/src/features/things/api.ts',
    `const { data } = await supabase.from('things').select('*').eq('id', 1);
     await supabase.from('things').upsert(row);
     await supabase.from('thing_view').select();
     await supabase.storage.from('thing-files').upload(path, file);
     await supabase.from('not_a_table').delete();
     const fn = kind === 'a' ? 'do_a' : 'do_b';
     await supabase.rpc(fn, {});
     await invokeFunction('thing-sync', {});
     supabase.channel('x').on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'things' }, () => {});`,
  );
  put('web/src/features/things/api.test.ts', `await supabase.from('unused').delete();`);

  it('finds the operations per table, names chosen from literals, functions, buckets and live changes', () => {
    const calls = webCalls(root);
    expect([...calls.relations.keys()].sort()).toEqual(['thing_view', 'things']);
    expect([...(calls.relations.get('things')?.operations ?? [])].sort()).toEqual([
      'live changes',
      'select',
      'upsert',
    ]);
    expect([...(calls.relations.get('things')?.features ?? [])]).toEqual(['things']);
    expect([...calls.functions.keys()].sort()).toEqual(['do_a', 'do_b']);
    expect([...calls.serverFunctions.keys()]).toEqual(['thing-sync']);
    expect([...calls.buckets.keys()]).toEqual(['thing-files']);
  });
});
