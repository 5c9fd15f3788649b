import { useQuery } from '@tanstack/react-query';
import { ScrollText } from 'lucide-react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { SelectFilter } from '#web/components/ui/filter-form.tsx';
import { type ListFilters, PagedList } from '#web/components/ui/paged-table.tsx';
import { auditLogQueryOptions } from '../api/get-audit-log.ts';
import {
  AUDIT_ACTIONS,
  AUDIT_PAGE_SIZE,
  AUDIT_TABLES,
  type AuditEntry,
  type AuditFilters,
  actionLabel,
  actorLabel,
  auditTime,
  changedFields,
  tableLabel,
} from '../audit.ts';

/** One recorded change: what, by whom, when, the fields it changed, and the row before and after. */
function AuditEntryItem({ entry }: { entry: AuditEntry }) {
  const changes = changedFields(entry.before, entry.after);
  return (
    <li className="rounded-xl border p-4 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge variant="outline">{actionLabel(entry.action)}</Badge>
        <span className="font-medium">{tableLabel(entry.targetTable)}</span>
        {entry.targetName ? <span data-testid="audit-target">{entry.targetName}</span> : null}
        {entry.targetId ? (
          <span className="text-muted-foreground text-xs">
            <span className="sr-only">Record </span>
            {entry.targetId}
          </span>
        ) : null}
      </div>
      <p className="mt-1 text-muted-foreground">
        By <span data-testid="audit-actor">{actorLabel(entry)}</span> ·{' '}
        <time dateTime={entry.at}>{auditTime(entry.at)}</time>
      </p>
      {changes.length > 0 ? (
        <ul className="mt-2 list-disc pl-5">
          {changes.slice(0, 5).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      <details className="mt-2">
        <summary className="cursor-pointer text-primary">Before and after</summary>
        <div className="mt-2 grid gap-2 md:grid-cols-2">
          <pre className="max-h-64 overflow-auto rounded-md bg-muted p-2 text-xs">
            {JSON.stringify(entry.before, null, 2)}
          </pre>
          <pre className="max-h-64 overflow-auto rounded-md bg-muted p-2 text-xs">
            {JSON.stringify(entry.after, null, 2)}
          </pre>
        </div>
      </details>
    </li>
  );
}

/** The audit log, filtered by table and action, a page at a time. */
export function AuditChanges({ list }: { list: ListFilters<AuditFilters> }) {
  const { filters, change, paging } = list;
  const log = useQuery(auditLogQueryOptions(filters));
  return (
    <div className="grid gap-4">
      <fieldset className="grid gap-3 rounded-xl border p-4 sm:grid-cols-2">
        <legend className="px-1 font-medium text-sm">Filter</legend>
        <SelectFilter
          id="audit-table"
          label="Table"
          value={filters.table}
          onChange={(value) => change({ table: value || null })}
          all="All tables"
          options={AUDIT_TABLES.map((table) => [table, tableLabel(table)])}
        />
        <SelectFilter
          id="audit-action"
          label="Action"
          value={filters.action}
          onChange={(value) => change({ action: value || null })}
          all="All actions"
          options={AUDIT_ACTIONS.map((action) => [action, actionLabel(action)])}
        />
      </fieldset>
      <PagedList
        what="audit log"
        query={log}
        empty={
          <EmptyState icon={ScrollText} title="No recorded changes match">
            Admin changes to roles, posts and bookings appear here as they happen.
          </EmptyState>
        }
        paging={paging(['changes', 'changes'], AUDIT_PAGE_SIZE)}
      >
        {(entries) => (
          <ul aria-label="Recorded changes" className="grid gap-2">
            {entries.map((entry) => (
              <AuditEntryItem key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
      </PagedList>
    </div>
  );
}
