import { Link } from 'react-router';
import { SectionShell } from '#web/components/layout/detail-shell.tsx';
import { useListFilters } from '#web/components/ui/paged-table.tsx';
import { cn } from '#web/lib/utils.ts';
import { auditFiltersSearch, parseAuditFilters } from '../audit.ts';
import { AuditChanges } from './audit-changes.tsx';
import { SecurityEvents } from './security-events.tsx';

const TABS = [
  ['changes', '/admin/audit', 'Admin changes'],
  ['security', '/admin/audit?tab=security', 'Security events'],
] as const;

const tabClass = (active: boolean) =>
  cn(
    'rounded-md px-3 py-2 font-medium text-sm focus-visible:outline-2 focus-visible:outline-ring',
    active ? 'bg-secondary text-foreground' : 'text-muted-foreground hover:text-foreground',
  );

/** /admin/audit: the append-only record of admin changes, and the security events, filterable in the URL. */
export function AuditSection() {
  const list = useListFilters(parseAuditFilters, auditFiltersSearch);
  const { filters } = list;
  return (
    <SectionShell
      id="audit-heading"
      title="Audit and security"
      description="Every admin change, recorded with who made it and the row before and after; nobody can edit or delete these records."
    >
      <nav aria-label="Audit views" className="flex gap-1">
        {TABS.map(([tab, to, label]) => (
          <Link
            key={tab}
            to={to}
            aria-current={filters.tab === tab ? 'page' : undefined}
            className={tabClass(filters.tab === tab)}
          >
            {label}
          </Link>
        ))}
      </nav>
      {filters.tab === 'changes' ? <AuditChanges list={list} /> : <SecurityEvents list={list} />}
    </SectionShell>
  );
}
