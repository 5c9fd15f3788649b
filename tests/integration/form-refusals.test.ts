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
  'product_comment_reports',
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

/**
 * The forms moved onto the mapping by issue 34 item 5's follow-up (decision 212), each with the table it
 * writes and the columns its inputs write: every rule of the table about one of those columns must put
 * its sentence at that column, so the form marks the input.
 */
const FIELD_FORMS: ReadonlyArray<{ form: string; table: string; columns: string[] }> = [
  { form: 'claim this brand', table: 'brand_claims', columns: ['role_title', 'message'] },
  {
    form: "a representative's edit",
    table: 'brands',
    columns: ['description', 'logo_url', 'website', 'social_links'],
  },
  {
    form: 'admin › Brands › licences',
    table: 'brand_licences',
    columns: ['number', 'state', 'type', 'expires_on', 'verification', 'verified_at', 'verification_note'],
  },
  { form: 'comments (new and edit)', table: 'product_comments', columns: ['content'] },
  {
    form: 'admin › Reports › review',
    table: 'scammer_reports',
    columns: ['public_summary', 'rejection_reason'],
  },
];

/** The functions those forms call instead of writing a table; their raises are walked like the triggers'. */
const FORM_FUNCTIONS = ['admin_update_booking', 'brands_update_profile'];

/** Raises of a form's function that no typed input can reach (a status sent by a button). */
const NOT_TYPED = ['Unknown booking status: %s.'];

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

  it("each form's rules about its inputs land at the input's column (decision 212)", async () => {
    const problems: string[] = [];
    for (const { form, table, columns } of FIELD_FORMS) {
      const { rows } = await db.query<{ conname: string; columns: string[] }>(
        `select c.conname, array(select a.attname::text from pg_attribute a
                                 where a.attrelid = c.conrelid and a.attnum = any(c.conkey) order by 1) as columns
           from pg_constraint c
          where c.contype in ('c', 'u', 'x') and c.conrelid = $1::regclass`,
        [`public.${table}`],
      );
      expect(rows.length, table).toBeGreaterThan(0);
      for (const row of rows) {
        // A rule about exactly one column the form writes is shown at that column.
        if (row.columns.length !== 1) continue;
        const column = row.columns[0] as string;
        if (!columns.includes(column)) continue;
        const refusal = REFUSALS[row.conname];
        if (!refusal || refusal.field !== column || !HUMAN.test(refusal.message))
          problems.push(`${form}: ${row.conname} → ${refusal?.field ?? 'unmapped'}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("the functions the forms call raise only rules of the mapping or guards (the booking note's length at the note)", async () => {
    const { rows } = await db.query<{ proname: string; prosrc: string }>(
      `select p.proname, p.prosrc from pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.proname = any($1)`,
      [FORM_FUNCTIONS],
    );
    expect(rows.map((row) => row.proname).sort()).toEqual([...FORM_FUNCTIONS].sort());
    const problems: string[] = [];
    for (const row of rows) {
      for (const match of row.prosrc.matchAll(/raise exception\s+using\s+([\s\S]*?);/gi)) {
        const using = match[1] ?? '';
        const errcode = /errcode\s*=\s*'([a-z_0-9]+)'/i.exec(using)?.[1] ?? '';
        const constraint = /constraint\s*=\s*'([a-z_0-9]+)'/i.exec(using)?.[1] ?? null;
        const message =
          /message\s*=\s*(?:format\()?'((?:[^']|'')*)'/i.exec(using)?.[1]?.replaceAll("''", "'") ?? '';
        const where = `${row.proname}: ${errcode}: ${constraint}: ${message}`;
        if (constraint) {
          const read = refusalOf({ code: '23514', message });
          if (!REFUSALS[constraint] || read?.field !== REFUSALS[constraint]?.field) problems.push(where);
        } else if (errcode === 'check_violation' || errcode === '23514') {
          // A rule about typed text must be a rule of the mapping, so its form can show it at the field.
          if (!NOT_TYPED.includes(message)) problems.push(where);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(
      refusalOf({ code: '23514', message: 'The internal note can be at most 2000 characters.' }),
    ).toEqual({
      field: 'note',
      message: 'The internal note can be at most 2000 characters.',
    });
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
