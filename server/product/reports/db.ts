import type { Queryable } from '../../db/driver.ts';

/** Every SQL statement of the scammer reports' server side: the evidence upload (decision 199). */

/**
 * The evidence slot as the scoped caller sees it: open (their own submitted report, no file yet), the
 * type it was declared with, and whether a cleaned file is already stored.
 */

export async function evidenceSlot(
  tx: Queryable,
  objectName: string,
): Promise<{ open: boolean; content_type: string | null; cleaned: boolean | null } | undefined> {
  const result = await tx.query<{ open: boolean; content_type: string | null; cleaned: boolean | null }>(
    `select private.scammer_evidence_slot_open($1) as open,
       (select e.content_type from public.scammer_report_evidence e where e.object_name = $1) as content_type,
       (select e.cleaned_at is not null from public.scammer_report_evidence e where e.object_name = $1) as cleaned`,
    [objectName],
  );
  return result.rows[0];
}

/** The slot's file is stored, cleaned (as the service). */
export async function markEvidenceCleaned(tx: Queryable, objectName: string): Promise<void> {
  await tx.query('update public.scammer_report_evidence set cleaned_at = now() where object_name = $1', [
    objectName,
  ]);
}
