import { FilePlus2, ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useUrlFilters } from '#web/lib/use-url-filters.ts';
import { openReportDialog } from '../report-dialog-store.ts';
import { MyReports } from './my-reports.tsx';
import { REPORT_FILTERS } from './report-search-filters.ts';
import { ReportSearchForm } from './report-search-form.tsx';
import { ReportSearchResults } from './report-search-results.tsx';
import { WatchAlerts } from './watch-alerts.tsx';

/**
 * product §scammer-database: the page, the search, and the member's own reports. `guard` shows the
 * search to members with access and the access states to everyone else (composed in app/). Every
 * signed-in member may file a report (with or without access), so the header offers "Submit a report"
 * to them; visitors see the guard's way in instead (issue 34).
 */
export function DatabasePage({ guard }: { guard: (content: ReactNode) => ReactNode }) {
  useDocumentTitle('Scammer Network');
  const { user } = useAuth();
  return (
    <PageContainer>
      <PageHeader
        icon={ShieldAlert}
        eyebrow="Members only"
        title="Scammer Network"
        description="Reports of scams in the cannabis trade, written by members and reviewed before publication, so you can check a seller or buyer before money changes hands."
        actions={
          user ? (
            <Button onClick={openReportDialog} className="min-h-11">
              <FilePlus2 aria-hidden="true" />
              Submit a report
            </Button>
          ) : null
        }
      />
      {guard(
        <>
          <ReportSearch />
          <WatchAlerts />
        </>,
      )}
      {user ? (
        <section id="my-reports" aria-labelledby="my-reports-heading" className="mt-12 scroll-mt-20">
          <h2 id="my-reports-heading" className="mb-3 font-semibold text-xl">
            My reports
          </h2>
          <MyReports userId={user.id} />
        </section>
      ) : null}
    </PageContainer>
  );
}

/** The search, its filters in the address, and what it finds. */
function ReportSearch() {
  const state = useUrlFilters(REPORT_FILTERS);
  const { filters, set } = state;
  return (
    <div className="mt-6 grid gap-6">
      {filters.brand ? (
        <p className="rounded-lg border p-3 text-sm" data-testid="brand-filter">
          Showing the reports linked to the brand you came from.{' '}
          <Button type="button" variant="link" className="h-auto p-0" onClick={() => set({ brand: null })}>
            Show all reports
          </Button>
        </p>
      ) : null}
      <ReportSearchForm {...state} />
      <ReportSearchResults filters={filters} onMore={() => set({ pages: filters.pages + 1 })} />
    </div>
  );
}
