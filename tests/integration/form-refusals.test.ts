// @databases: both — the rules are the database's own (check constraints, trigger functions)
/**
 * Every rule the database enforces on the tables the admin and member forms write has a sentence for
 * people and a field in ONE mapping, web/src/lib/refusals.ts (issue 34 item 5, decision 180). The test
 * walks the catalog, so a new constraint or a new `raise exception … constraint = …` in a trigger fails it
 * until the mapping explains it. A real refusal of each kind then reads as its sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#server/db/driver.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import { ERROR_TEXTS, errorText } from '#web/lib/error-text.ts';
import { REFUSALS, refusalOf } from '#web/lib/refusals.ts';

/** The tables a form of the product writes (admin and member forms; grep `.from('…').insert|update|upsert`). */
const FORM_TABLES = [
  'admin_posts',
  'products',
  'brands',
  'brand_claims',
  'brand_licences',
  'news_sources',
  'bookings',
  'scammer_reports',
  'scammer_report_evidence',
  'scammer_report_masks',
  'scammer_report_replies',
  'scammer_watches',
  'profiles',
  'privacy_settings',
  'product_comments',
];

/** A sentence: a capital first, a full stop last, no SQL words. */
const HUMAN = /^[A-Z][^\n]*[.!?]$/;
const SQL_WORDS = /\b(violates|constraint|relation|column|tuple|null value|syntax|function|operator)\b/i;

let handle: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;
beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
});
afterAll(() => handle?.close());

interface Raise {
  table: string;
  fn: string;
  errcode: string;
  constraint: string | null;
  message: string;
}

/** The `raise exception using errcode = …, constraint = …, message = …` statements of the tables' triggers. */
async function raises(): Promise<Raise[]> {
  const { rows } = await db.query<{ tbl: string; proname: string; prosrc: string; args: string }>(
    `select distinct t.tgrelid::regclass::text as tbl, p.proname, p.prosrc, encode(t.tgargs, 'escape') as args
       from pg_trigger t join pg_proc p on p.oid = t.tgfoid
      where not t.tgisinternal and t.tgrelid::regclass::text = any($1)`,
    [FORM_TABLES],
  );
  const found: Raise[] = [];
  for (const row of rows) {
    for (const match of row.prosrc.matchAll(/raise exception\s+using\s+([\s\S]*?);/gi)) {
      const using = match[1] ?? '';
      const errcode = /errcode\s*=\s*'([a-z_0-9]+)'/i.exec(using)?.[1] ?? '';
      const constraint = /constraint\s*=\s*'([a-z_0-9]+)'/i.exec(using)?.[1] ?? null;
      const literal = /message\s*=\s*'((?:[^']|'')*)'/i.exec(using)?.[1];
      const formatted = /message\s*=\s*format\('((?:[^']|'')*)'/i.exec(using)?.[1];
      // A `message = case … then '…' else '…' end` raises one sentence per branch.
      const branches = [...using.matchAll(/(?:then|else)\s+'((?:[^']|'')*)'/gi)].map(
        (branch) => branch[1] ?? '',
      );
      // A shared guard takes its sentence from the trigger's arguments (`message = tg_argv[2]`).
      const argument = /message\s*=\s*tg_argv\[(\d+)\]/i.exec(using)?.[1];
      const argued =
        argument === undefined ? undefined : row.args.split('\\000')[Number(argument)]?.replaceAll("'", "''");
      const messages =
        literal !== undefined
          ? [literal]
          : formatted !== undefined
            ? [formatted]
            : argued !== undefined
              ? [argued]
              : branches;
      expect(messages.length, `${row.proname}: ${using}`).toBeGreaterThan(0);
      for (const message of messages) {
        found.push({
          table: row.tbl,
          fn: row.proname,
          errcode,
          constraint,
          message: message.replaceAll("''", "'"),
        });
      }
    }
  }
  return found;
}

describe('refusals of the tables the forms write', () => {
  it('every check, unique and exclusion constraint has a field and a sentence in the mapping', async () => {
    const { rows } = await db.query<{ tbl: string; conname: string }>(
      `select c.conrelid::regclass::text as tbl, c.conname
         from pg_constraint c
        where c.contype in ('c', 'u', 'x') and c.conrelid::regclass::text = any($1)
        order by 1, 2`,
      [FORM_TABLES],
    );
    expect(rows.length).toBeGreaterThan(100);
    expect(new Set(rows.map((row) => row.tbl))).toEqual(new Set(FORM_TABLES));
    const missing = rows.filter((row) => !REFUSALS[row.conname]).map((row) => row.conname);
    expect(missing).toEqual([]);
    for (const row of rows) {
      const refusal = REFUSALS[row.conname];
      expect(refusal?.message, row.conname).toMatch(HUMAN);
      expect(refusal?.message, row.conname).not.toMatch(SQL_WORDS);
    }
  });

  it('every rule a trigger raises is in the mapping; the others are permission guards', async () => {
    const found = await raises();
    expect(found.filter((raise) => raise.constraint).length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const raise of found) {
      const where = `${raise.table}: ${raise.fn}: ${raise.errcode}: ${raise.constraint}: ${raise.message}`;
      if (raise.constraint) {
        const refusal = REFUSALS[raise.constraint];
        // PostgREST sends the trigger's sentence without the rule's name: the sentence itself is recognised
        // (values of a format() filled in as the database would).
        const sent = raise.message.replace(/%s/g, 'pending');
        const read = refusalOf({ code: '23514', message: sent });
        if (
          !refusal ||
          !HUMAN.test(refusal.message) ||
          read?.field !== refusal.field ||
          !HUMAN.test(read.message)
        ) {
          problems.push(where);
        }
      } else if (raise.errcode === 'insufficient_privilege') {
        // A guard against a write the forms never send reads as the permission text; one the product can
        // meet (a sample refusing votes, decision 175) says its own sentence from the mapping.
        const text = errorText({ code: '42501', message: raise.message });
        const mapped = refusalOf({ code: '42501', message: raise.message });
        if (mapped ? text !== mapped.message || !HUMAN.test(text) : text !== ERROR_TEXTS.permission)
          problems.push(where);
      } else if (!HUMAN.test(refusalOf({ code: '23503', message: raise.message })?.message ?? '')) {
        problems.push(where);
      }
    }
    expect(problems).toEqual([]);
  });

  it('a real refusal reads as its sentence, at its field', async () => {
    const failure = await db
      .query(
        `insert into public.products (id, name, category, strain_type, thc_min, thc_max, description)
         values ('refusal-test', 'Refusal test', 'Flower', 'n/a', 30, 20, '')`,
      )
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).not.toBeNull();
    expect(refusalOf(failure)).toEqual({
      field: 'thc_max',
      message: 'THC "to" must be at least THC "from".',
    });
  });
});
