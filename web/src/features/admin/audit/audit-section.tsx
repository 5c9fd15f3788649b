import { useQuery } from '@tanstack/react-query';
import { ScrollText } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Pager, QueryState } from '#web/components/layout/list-states.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { cn } from '#web/lib/utils.ts';
import { auditLogQueryOptions, securityEventsQueryOptions } from '../api/get-audit-log.ts';
import {
  AUDIT_ACTIONS,
  AUDIT_PAGE_SIZE,
  AUDIT_TABLES,
  type AuditFilters,
  actionLabel,
  actorLabel,
  auditFiltersSearch,
  changedFields,
  parseAuditFilters,
  RISK_LEVELS,
  type RiskLevel,
  tableLabel,
} from '../audit.ts';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  });

const RISK_VARIANT: Record<RiskLevel, 'outline' | 'secondary' | 'destructive' | 'default'> = {
  low: 'outline',
  medium: 'secondary',
  high: 'destructive',
  critical: 'destructive',
};

function Pages({
  filters,
  total,
  label,
  onPage,
}: {
  filters: AuditFilters;
  total: number;
  label: string;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  return (
    <Pager
      label={label}
      summary={`${total.toLocaleString('en-US')} ${label} · page ${filters.page} of ${pages}`}
      page={filters.page}
      pages={pages}
      onPage={onPage}
    />
  );
}

function Changes({
  filters,
  change,
}: {
  filters: AuditFilters;
  change: (patch: Partial<AuditFilters>) => void;
}) {
  const log = useQuery(auditLogQueryOptions(filters));
  return (
    <div className="grid gap-4">
      <fieldset className="grid gap-3 rounded-xl border p-4 sm:grid-cols-2">
        <legend className="px-1 font-medium text-sm">Filter</legend>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-table">Table</Label>
          <NativeSelect
            id="audit-table"
            value={filters.table ?? ''}
            onChange={(event) => change({ table: event.target.value || null })}
          >
            <option value="">All tables</option>
            {AUDIT_TABLES.map((table) => (
              <option key={table} value={table}>
                {tableLabel(table)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-action">Action</Label>
          <NativeSelect
            id="audit-action"
            value={filters.action ?? ''}
            onChange={(event) => change({ action: event.target.value || null })}
          >
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {actionLabel(action)}
              </option>
            ))}
          </NativeSelect>
        </div>
      </fieldset>
      {log.isPending || log.isError ? (
        <QueryState what="audit log" query={log} />
      ) : log.data.rows.length === 0 ? (
        <EmptyState icon={ScrollText} title="No recorded changes match">
          Admin changes to roles, posts and bookings appear here as they happen.
        </EmptyState>
      ) : (
        <>
          <ul aria-label="Recorded changes" className="grid gap-2">
            {log.data.rows.map((entry) => {
              const changes = changedFields(entry.before, entry.after);
              return (
                <li key={entry.id} className="rounded-xl border p-4 text-sm">
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
                    <time dateTime={entry.at}>{when(entry.at)}</time>
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
            })}
          </ul>
          <Pages
            filters={filters}
            total={log.data.total}
            label="changes"
            onPage={(page) => change({ page })}
          />
        </>
      )}
    </div>
  );
}

function SecurityEvents({
  filters,
  change,
}: {
  filters: AuditFilters;
  change: (patch: Partial<AuditFilters>) => void;
}) {
  const events = useQuery(securityEventsQueryOptions(filters));
  return (
    <div className="grid gap-4">
      <div className="grid max-w-xs gap-1.5">
        <Label htmlFor="audit-risk">Risk level</Label>
        <NativeSelect
          id="audit-risk"
          value={filters.risk ?? ''}
          onChange={(event) => change({ risk: (event.target.value || null) as RiskLevel | null })}
        >
          <option value="">All levels</option>
          {RISK_LEVELS.map((risk) => (
            <option key={risk} value={risk}>
              {risk[0]?.toUpperCase()}
              {risk.slice(1)}
            </option>
          ))}
        </NativeSelect>
      </div>
      {events.isPending || events.isError ? (
        <QueryState what="security events" query={events} />
      ) : events.data.rows.length === 0 ? (
        <EmptyState icon={ScrollText} title="No security events match">
          Events the app logs (failed sign-ins, refused uploads, suspicious activity) appear here.
        </EmptyState>
      ) : (
        <>
          <div className="overflow-x-auto rounded-xl border">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">Security events, newest first</caption>
              <thead className="bg-muted/50 text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    When
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Risk
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Event
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Description
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Who
                  </th>
                </tr>
              </thead>
              <tbody>
                {events.data.rows.map((event) => (
                  <tr key={event.id} className="border-t align-top">
                    <td className="whitespace-nowrap px-4 py-3">
                      <time dateTime={event.createdAt}>{when(event.createdAt)}</time>
                    </td>
                    <td className="px-4 py-3">
                      <Badge variant={RISK_VARIANT[event.riskLevel]}>{event.riskLevel}</Badge>
                    </td>
                    <td className="px-4 py-3">
                      {event.type}
                      <div className="text-muted-foreground text-xs">
                        {event.category} · {event.action}
                      </div>
                    </td>
                    <td className="max-w-xs px-4 py-3">{event.description ?? '—'}</td>
                    <td className="px-4 py-3 text-muted-foreground text-xs">
                      {event.userId ?? 'Visitor'}
                      {event.ip ? <div>{event.ip}</div> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pages
            filters={filters}
            total={events.data.total}
            label="events"
            onPage={(page) => change({ page })}
          />
        </>
      )}
    </div>
  );
}

/** /admin/audit: the append-only record of admin changes, and the security events, filterable in the URL. */
export function AuditSection() {
  const [params, setParams] = useSearchParams();
  const filters = parseAuditFilters(params);
  const change = (patch: Partial<AuditFilters>) =>
    setParams(new URLSearchParams(auditFiltersSearch({ ...filters, page: 1, ...patch })));
  const tabClass = (active: boolean) =>
    cn(
      'rounded-md px-3 py-2 font-medium text-sm focus-visible:outline-2 focus-visible:outline-ring',
      active ? 'bg-secondary text-foreground' : 'text-muted-foreground hover:text-foreground',
    );
  return (
    <section aria-labelledby="audit-heading" className="grid gap-4">
      <div>
        <h2 id="audit-heading" className="font-semibold text-xl">
          Audit and security
        </h2>
        <p className="mt-1 text-muted-foreground">
          Every admin change, recorded with who made it and the row before and after; nobody can edit or
          delete these records.
        </p>
      </div>
      <nav aria-label="Audit views" className="flex gap-1">
        <Link
          to="/admin/audit"
          aria-current={filters.tab === 'changes' ? 'page' : undefined}
          className={tabClass(filters.tab === 'changes')}
        >
          Admin changes
        </Link>
        <Link
          to="/admin/audit?tab=security"
          aria-current={filters.tab === 'security' ? 'page' : undefined}
          className={tabClass(filters.tab === 'security')}
        >
          Security events
        </Link>
      </nav>
      {filters.tab === 'changes' ? (
        <Changes filters={filters} change={change} />
      ) : (
        <SecurityEvents filters={filters} change={change} />
      )}
    </section>
  );
}
