import { useQuery } from '@tanstack/react-query';
import { FilePlus2, Search, ShieldAlert } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useAuth, useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { PAGE_SIZE, searchReportsQueryOptions } from '../api/published-reports.ts';
import { filtersOf, hasFilters } from '../database.ts';
import { openReportDialog } from '../report-dialog-store.ts';
import { MyReports } from './my-reports.tsx';
import { ReportCard } from './report-card.tsx';
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

function ReportSearch() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersOf(params), [params]);
  const pages = Math.min(10, Math.max(1, Number(params.get('pages')) || 1));
  const [search, setSearch] = useState(filters.q);
  const userId = useConfirmedUserId();
  const results = useQuery(searchReportsQueryOptions(userId, filters, pages));

  // Changes apply to the address as it is now (the search box writes it after a delay).
  function update(changes: Record<string, string | null>) {
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    if (!('pages' in changes)) next.delete('pages');
    setParams(next, { replace: true });
  }

  const currentQ = useRef(filters.q);
  currentQ.current = filters.q;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the typed text changes, by design
  useEffect(() => {
    if (search.trim() === currentQ.current) return;
    const timer = setTimeout(() => update({ q: search.trim() || null }), 300);
    return () => clearTimeout(timer);
  }, [search]);

  const rows = results.data ?? [];
  const shown = rows.slice(0, PAGE_SIZE * pages);

  return (
    <div className="mt-6 grid gap-6">
      {filters.brand ? (
        <p className="rounded-lg border p-3 text-sm" data-testid="brand-filter">
          Showing the reports linked to the brand you came from.{' '}
          <Button type="button" variant="link" className="h-auto p-0" onClick={() => update({ brand: null })}>
            Show all reports
          </Button>
        </p>
      ) : null}
      <form
        aria-label="Search reports"
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          update({ q: search.trim() || null });
        }}
      >
        <div className="grid gap-1.5 sm:col-span-2">
          <Label htmlFor="scam-search">Name, business, phone, email, website or handle</Label>
          <div className="relative">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              id="scam-search"
              type="search"
              className="pl-9"
              maxLength={200}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="e.g. Green Valley Supply"
            />
          </div>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="scam-location">Location</Label>
          <Input
            id="scam-location"
            maxLength={100}
            defaultValue={filters.location}
            key={`location-${filters.location}`}
            onBlur={(event) => update({ location: event.target.value.trim() || null })}
            placeholder="City or state"
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="scam-sort">Sort by</Label>
          <NativeSelect
            id="scam-sort"
            value={filters.sort}
            onChange={(event) => update({ sort: event.target.value === 'amount' ? 'amount' : null })}
          >
            <option value="newest">Newest</option>
            <option value="amount">Amount</option>
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="scam-min">Amount from ($)</Label>
          <Input
            id="scam-min"
            inputMode="decimal"
            defaultValue={filters.amountMin}
            key={`min-${filters.amountMin}`}
            onBlur={(event) => update({ min: event.target.value.trim() || null })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="scam-max">Amount to ($)</Label>
          <Input
            id="scam-max"
            inputMode="decimal"
            defaultValue={filters.amountMax}
            key={`max-${filters.amountMax}`}
            onBlur={(event) => update({ max: event.target.value.trim() || null })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="scam-from">Incident from</Label>
          <Input
            id="scam-from"
            type="date"
            value={filters.from}
            onChange={(event) => update({ from: event.target.value || null })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="scam-to">Incident to</Label>
          <Input
            id="scam-to"
            type="date"
            value={filters.to}
            onChange={(event) => update({ to: event.target.value || null })}
          />
        </div>
        <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-4">
          <Button type="submit">Search</Button>
          {hasFilters(filters) ? (
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                setSearch('');
                setParams(new URLSearchParams(), { replace: true });
              }}
            >
              Clear filters
            </Button>
          ) : null}
        </div>
      </form>

      <section aria-labelledby="reports-heading" aria-busy={results.isFetching}>
        {/* The cards' names are h3s: a heading between them and the page's h1 keeps the order (axe heading-order). */}
        <h2 id="reports-heading" className="sr-only">
          Reports
        </h2>
        {results.isPending ? (
          <div className="grid gap-3" data-testid="reports-loading">
            <Skeleton className="h-28" />
            <Skeleton className="h-28" />
          </div>
        ) : results.isError ? (
          <div role="alert" className="grid justify-items-start gap-2">
            <p className="text-destructive dark:text-red-400">{errorText(results.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void results.refetch()}>
              Try again
            </Button>
          </div>
        ) : shown.length === 0 ? (
          <p className="rounded-lg border border-dashed p-8 text-center text-muted-foreground">
            {hasFilters(filters)
              ? 'No published reports match this search. Check the spelling, or try a phone number, email or website.'
              : 'No reports have been published yet.'}
          </p>
        ) : (
          <>
            <p className="mb-3 text-muted-foreground text-sm" aria-live="polite">
              {shown.length === 1
                ? '1 report'
                : `${shown.length}${rows.length > shown.length ? '+' : ''} reports`}
            </p>
            <ul className="grid gap-3">
              {shown.map((report) => (
                <ReportCard key={report.id} report={report} />
              ))}
            </ul>
            {rows.length > shown.length ? (
              <Button variant="outline" className="mt-4" onClick={() => update({ pages: String(pages + 1) })}>
                Show more
              </Button>
            ) : null}
          </>
        )}
      </section>
    </div>
  );
}
