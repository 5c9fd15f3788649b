// @databases: both — a migration's SQL and column defaults.
/**
 * Issue 33 part 3, privacy by default (decision 193): a new member starts with every optional sharing
 * setting off ("Show activity", analytics), whether they never save settings or save a row without
 * those values; the migration that changed the defaults left existing members with what applied to
 * them — their saved rows untouched, and a row with the old effective values for those who had none.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#server/db/driver.ts';
import { PROJECT_ROOT } from '#server/paths.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import { anon, insertAccount, runAs, user } from './schema-support.ts';

const MIGRATION = join(PROJECT_ROOT, 'supabase/migrations/20261128210000_privacy_by_default.sql');

let handle: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;

const SAVED = '3b000000-0000-4000-8000-000000000001';
const NEVER_SAVED = '3b000000-0000-4000-8000-000000000002';
const NEWCOMER = '3b000000-0000-4000-8000-000000000003';
const ROW_WITHOUT_VALUES = '3b000000-0000-4000-8000-000000000004';

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
});
afterAll(() => handle?.close());

async function settingsOf(id: string) {
  const { rows } = await db.query<{ show_activity: boolean; allow_analytics: boolean; show_email: boolean }>(
    'select show_activity, allow_analytics, show_email from public.privacy_settings where user_id = $1',
    [id],
  );
  return rows;
}

/** What a visitor sees of a member's activity on their public profile. */
async function activityShown(id: string): Promise<boolean> {
  await db.query(`update public.profiles set username = $2 where user_id = $1`, [id, `m_${id.slice(-4)}`]);
  const [row] = await runAs<{ profile: { show_activity: boolean } }>(
    db,
    anon(),
    'select public.member_profile($1) as profile',
    [`m_${id.slice(-4)}`],
  );
  return row?.profile.show_activity === true;
}

describe('privacy by default', () => {
  it('keeps existing members’ choices and what applied to them, and starts newcomers with sharing off', async () => {
    // Two members from before the change: one saved settings (activity hidden, the old pre-ticked
    // analytics left on), one never did (the old defaults applied: activity shown).
    await insertAccount(db, { id: SAVED, email: 'saved@defaults.example' });
    await insertAccount(db, { id: NEVER_SAVED, email: 'never@defaults.example' });
    await db.query(
      `insert into public.privacy_settings (user_id, show_activity, allow_analytics, show_email)
       values ($1, false, true, true)`,
      [SAVED],
    );

    // The migration, as it ran on an install that had them (it is safe to run again).
    await db.exec(await readFile(MIGRATION, 'utf8'));

    expect(await settingsOf(SAVED)).toEqual([
      { show_activity: false, allow_analytics: true, show_email: true },
    ]);
    expect(await settingsOf(NEVER_SAVED)).toEqual([
      { show_activity: true, allow_analytics: false, show_email: false },
    ]);
    expect(await activityShown(NEVER_SAVED)).toBe(true);

    // A member who joins afterwards and never saves: nothing shared.
    await insertAccount(db, { id: NEWCOMER, email: 'new@defaults.example' });
    expect(await settingsOf(NEWCOMER)).toEqual([]);
    expect(await activityShown(NEWCOMER)).toBe(false);

    // One who saves a row without those values: off too.
    await insertAccount(db, { id: ROW_WITHOUT_VALUES, email: 'row@defaults.example' });
    const [saved] = await runAs<{ show_activity: boolean; allow_analytics: boolean }>(
      db,
      user(ROW_WITHOUT_VALUES),
      'insert into public.privacy_settings (user_id) values ($1) returning show_activity, allow_analytics',
      [ROW_WITHOUT_VALUES],
    );
    expect(saved).toEqual({ show_activity: false, allow_analytics: false });
    expect(await activityShown(ROW_WITHOUT_VALUES)).toBe(false);
  });
});
