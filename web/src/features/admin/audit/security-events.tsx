import { useQuery } from '@tanstack/react-query';
import { ScrollText } from 'lucide-react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { SelectFilter } from '#web/components/ui/filter-form.tsx';
import { type Column, type ListFilters, PagedTable } from '#web/components/ui/paged-table.tsx';
import { securityEventsQueryOptions } from '../api/get-security-events.ts';
import {
  AUDIT_PAGE_SIZE,
  type AuditFilters,
  auditTime,
  RISK_LEVELS,
  type RiskLevel,
  type SecurityEvent,
} from '../audit.ts';

const RISK_VARIANT: Record<RiskLevel, 'outline' | 'secondary' | 'destructive' | 'default'> = {
  low: 'outline',
  medium: 'secondary',
  high: 'destructive',
  critical: 'destructive',
};

const COLUMNS: Column<SecurityEvent>[] = [
  {
    header: 'When',
    className: 'whitespace-nowrap',
    cell: (event) => <time dateTime={event.createdAt}>{auditTime(event.createdAt)}</time>,
  },
  {
    header: 'Risk',
    cell: (event) => <Badge variant={RISK_VARIANT[event.riskLevel]}>{event.riskLevel}</Badge>,
  },
  {
    header: 'Event',
    cell: (event) => (
      <>
        {event.type}
        <div className="text-muted-foreground text-xs">
          {event.category} · {event.action}
        </div>
      </>
    ),
  },
  { header: 'Description', className: 'max-w-xs', cell: (event) => event.description ?? '—' },
  {
    header: 'Who',
    className: 'text-muted-foreground text-xs',
    cell: (event) => (
      <>
        {event.userId ?? 'Visitor'}
        {event.ip ? <div>{event.ip}</div> : null}
      </>
    ),
  },
];

/** The security events the app logged, filtered by risk, a page at a time. */
export function SecurityEvents({ list }: { list: ListFilters<AuditFilters> }) {
  const { filters, change, paging } = list;
  const events = useQuery(securityEventsQueryOptions(filters));
  return (
    <div className="grid gap-4">
      <SelectFilter
        id="audit-risk"
        label="Risk level"
        className="max-w-xs"
        value={filters.risk}
        onChange={(value) => change({ risk: (value || null) as RiskLevel | null })}
        all="All levels"
        options={RISK_LEVELS.map((risk) => [risk, `${risk[0]?.toUpperCase()}${risk.slice(1)}`])}
      />
      <PagedTable
        what="security events"
        query={events}
        empty={
          <EmptyState icon={ScrollText} title="No security events match">
            Events the app logs (failed sign-ins, refused uploads, suspicious activity) appear here.
          </EmptyState>
        }
        caption="Security events, newest first"
        columns={COLUMNS}
        minWidth="min-w-[40rem]"
        rowClassName="align-top"
        paging={paging(['events', 'events'], AUDIT_PAGE_SIZE)}
      />
    </div>
  );
}
