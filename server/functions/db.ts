import type { Queryable } from '../db/driver.ts';
import { one } from '../db/sql.ts';

/**
 * Every SQL statement of the functions service itself: who is calling. Each product area keeps its
 * own in `server/product/<area>/db.ts` (decision 231).
 */

/**
 * Whether the token's account exists and, when the token names a session, whether that session does
 * (GoTrue's requireAuthentication: signed out means signed out, even before the token expires).
 */
export async function findAccountAndSession(
  tx: Queryable,
  userId: string,
  sessionId: string | null,
): Promise<{ account: boolean; session: boolean }> {
  const row = await one<{ account: boolean; session: boolean }>(
    tx,
    `select exists (select 1 from auth.users u where u.id = $1::uuid) as account,
       $2::uuid is not null and exists (
         select 1 from auth.sessions s where s.id = $2::uuid and s.user_id = $1::uuid
           and (s.not_after is null or s.not_after > now())
       ) as session`,
    [userId, sessionId],
  );
  return row ?? { account: false, session: false };
}

/** Whether the account holds the admin role (operator functions: news refresh, post preview). */
export async function isAdmin(tx: Queryable, userId: string): Promise<boolean> {
  const row = await one<{ admin: boolean }>(
    tx,
    `select exists (select 1 from public.user_roles where user_id = $1::uuid and role = 'admin') as admin`,
    [userId],
  );
  return row?.admin ?? false;
}
