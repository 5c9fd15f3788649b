import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRequest } from '#server/rest/plan.ts';
import { Params, readStatement } from '#server/rest/query.ts';
import { parseApiRequest } from '#server/rest/request.ts';
import { loadSchemaCache } from '#server/rest/schema-cache.ts';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';

/**
 * The text anyone may search through the data API (product comments) has indexes, and the SQL the
 * data API generates for `fts` and `ilike` filters is SQL those indexes serve (issue 13, decision
 * 092). The planner is told to avoid sequential scans, so a plan without the index means the index
 * cannot be used at all.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** The indexes in the plan of the data API's statement for `GET /rest/v1/<name>?<query>`. */
async function indexesUsed(
  name: string,
  query: string,
  role: 'anon' | 'authenticated' = 'anon',
): Promise<string[]> {
  const cache = await loadSchemaCache(server.db);
  const planned = planRequest(
    { cache, maxRows: 1000 },
    parseApiRequest({ method: 'GET', route: 'relation', name, query, headers: {}, body: undefined }),
  );
  if (planned.plan.kind !== 'read') throw new Error('not a read');
  const p = new Params();
  const sql = readStatement(p, planned.plan.read, { media: planned.media, head: false });
  const { rows } = await server.db.withScope({ role, claims: { role } }, async (tx) => {
    await tx.query('set local enable_seqscan = off');
    return tx.query<{ plan: unknown }>(`explain (format json) ${sql}`, p.values);
  });
  const plan = JSON.stringify(Object.values(rows[0] ?? {})[0]);
  return [...plan.matchAll(/"Index Name":"([^"]+)"/g)].map((match) => match[1] as string);
}

describe(`search indexes (${testDatabase()})`, () => {
  it('serves the full-text search that took 19 s on 40,000 comments', async () => {
    const used = await indexesUsed('product_comments', 'select=id&content=fts.zzz%20%26%20!qqq&limit=1');
    expect(used).toContain('product_comments_content_fts_idx');
  });

  it.each([
    ['plfts', 'plfts.gas%20pass'],
    ['phfts', 'phfts.gas%20pass'],
    ['wfts', 'wfts.gas%20-pass'],
    ['fts with the default language named', 'fts(english).gas'],
  ])('serves %s', async (_name, filter) => {
    const used = await indexesUsed('product_comments', `select=id&content=${filter}`);
    expect(used).toContain('product_comments_content_fts_idx');
  });

  it('serves ilike and like with wildcards on every side, also inside or=(...)', async () => {
    for (const query of [
      'select=id&content=ilike.*kush*',
      'select=id&content=like.*Kush*',
      'select=id&or=(content.ilike.*kush*,content.ilike.*haze*)',
    ]) {
      expect(await indexesUsed('product_comments', query)).toContain('product_comments_content_trgm_idx');
    }
  });
});
