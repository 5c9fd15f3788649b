import { type LucideIcon, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Pager, QueryState, type QueryStatus } from '#web/components/layout/list-states.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { formatNumber } from '#web/lib/format.ts';
import { pageNumber } from '#web/lib/use-url-filters.ts';
import { cn } from '#web/lib/utils.ts';

/**
 * The admin lists' one frame (issue 38 part 2): the rows of a page in a table (or a list of their own),
 * the loading, error and empty states, and Previous / Next with "1,204 members · page 2 of 49"; the
 * filters and the page live in the URL, so a view can be shared and reloaded.
 */

/** The highest page a URL may ask for; anything else (a typo, "-1", "abc") is page 1. */
export const MAX_PAGE = 100_000;

/** The page asked for by a URL's ?page=: a whole number from 1 to MAX_PAGE, else 1. */
export function parsePage(value: string | null): number {
  return pageNumber(value, MAX_PAGE);
}

/**
 * A list's URL search from its filters' parameters (defaults already left out) and its page (page 1 left
 * out too): "?status=new&page=2", or "" so links stay short.
 */
export function listSearch(params: URLSearchParams, page: number): string {
  const all = new URLSearchParams(params);
  if (page > 1) all.set('page', String(page));
  const search = all.toString();
  return search ? `?${search}` : '';
}

/** How many pages `total` rows fill: at least one, so an empty list is "page 1 of 1". */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export interface PageSummary {
  total: number;
  /** The total is the database's estimate of a long list (see ListData): "about 1,000,000 members". */
  approximate?: boolean;
  /** The rows' name, one and many: ['member', 'members']. */
  noun: readonly [string, string];
  page: number;
  pages: number;
  /** Adds " (25 per page)". */
  perPage?: number;
}

/**
 * The pager's line: "1,204 members · page 2 of 49", "1 booking · page 1 of 1 (25 per page)", or for an
 * estimated total "about 1,000,000 members · page 2 of about 40,000".
 */
export function pageSummary({ total, approximate, noun, page, pages, perPage }: PageSummary): string {
  const count = approximate
    ? `about ${formatNumber(total)} ${noun[1]}`
    : `${formatNumber(total)} ${total === 1 ? noun[0] : noun[1]}`;
  return `${count} · page ${page} of ${ofPages(pages, approximate)}${perPage === undefined ? '' : ` (${perPage} per page)`}`;
}

const ofPages = (pages: number, approximate = false) =>
  approximate ? `about ${formatNumber(pages)}` : String(pages);

/** A table's caption for screen readers: "Members, newest members, page 2 of 49" (or "of about 40,000"). */
export function listCaption(
  name: string,
  order: string,
  page: number,
  pages: number,
  approximate = false,
): string {
  return `${name}, ${order.toLowerCase()}, page ${page} of ${ofPages(pages, approximate)}`;
}

/** A list's filters as the URL holds them, the way to change them, and its pager's wiring. */
export interface ListFilters<F extends { page: number }> {
  filters: F;
  /** Changes filters (back to page 1) or, with `{ page }`, moves to another page with the filters kept. */
  change: (patch: Partial<F>) => void;
  /** PagedList's paging for this list: the rows' name, the page size, and whether the summary says it. */
  paging: (noun: Paging['noun'], pageSize: number, showPageSize?: boolean) => Paging;
}

/**
 * A list's filters in the URL: `parse` reads them (unknown values ignored), `search` writes them back
 * ("?status=new&page=2", defaults left out), each change a new history entry.
 */
export function useListFilters<F extends { page: number }>(
  parse: (params: URLSearchParams) => F,
  search: (filters: F) => string,
): ListFilters<F> {
  const [params, setParams] = useSearchParams();
  const filters = parse(params);
  // A change applies to the address as it is now, not as this render read it: two filters chosen before
  // the list renders again (a date, then a category) both stay (as in useUrlFilters).
  const change = (patch: Partial<F>) =>
    setParams(
      new URLSearchParams(
        search({ ...parse(new URLSearchParams(window.location.search)), page: 1, ...patch }),
      ),
    );
  const paging = (noun: Paging['noun'], pageSize: number, showPageSize = false): Paging => ({
    noun,
    pageSize,
    showPageSize,
    page: filters.page,
    onPage: (page) => change({ page } as Partial<F>),
  });
  return { filters, change, paging };
}

/** A row's link to its record's page (relative to the list's). */
export function RowLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="font-medium text-primary underline-offset-4 hover:underline">
      {children}
    </Link>
  );
}

/** A cell's second line, smaller and muted (an email under a name). */
export function CellNote({ children }: { children: ReactNode }) {
  return <div className="text-muted-foreground text-xs">{children}</div>;
}

/**
 * An empty list: what will appear in it (`none`, title and text) or, while filters are on, that nothing
 * matches them (`noMatch`).
 */
export function EmptyList({
  icon,
  filtered,
  none,
  noMatch,
}: {
  icon: LucideIcon;
  filtered: boolean;
  none: readonly [title: string, text: string];
  noMatch: readonly [title: string, text: string];
}) {
  const [title, text] = filtered ? noMatch : none;
  return (
    <EmptyState icon={icon} title={title}>
      {text}
    </EmptyState>
  );
}

/** A list's sort orders as a select's options (filter-form.tsx's SelectFilter): each key with its label. */
export function sortOptions(sorts: Readonly<Record<string, { label: string }>>): [string, string][] {
  return Object.entries(sorts).map(([key, sort]) => [key, sort.label]);
}

/** A column: its header (for screen readers too) and what each row shows in it. */
export interface Column<Row> {
  header: ReactNode;
  /** The cells' classes (padding is the table's). */
  className?: string;
  cell: (row: Row) => ReactNode;
}

/** A row of a list: its id keys it. */
interface Keyed {
  id: string | number;
}

interface TableProps<Row extends Keyed> {
  /** Read by screen readers before the table (listCaption). */
  caption: ReactNode;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** The table's least width before it scrolls sideways, e.g. "min-w-[40rem]". */
  minWidth: string;
  /** Extra classes of each row (e.g. "align-top"). */
  rowClassName?: string;
}

/** The admin lists' table: header cells scoped to their column, rows separated, scrolling on narrow screens. */
export function DataTable<Row extends Keyed>({
  caption,
  columns,
  rows,
  minWidth,
  rowClassName,
}: TableProps<Row>) {
  return (
    <div className="overflow-x-auto rounded-xl border">
      <table className={cn('w-full text-left text-sm', minWidth)}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted/50 text-muted-foreground">
          <tr>
            {columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed, in order
              <th key={index} scope="col" className="px-4 py-3 font-medium">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className={cn('border-t', rowClassName)}>
              {columns.map((column, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed, in order
                <td key={index} className={cn('px-4 py-3', column.className)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Where a list is in its pages, and how to move. */
export interface Paging {
  /** The rows' name, one and many: the summary's ("1 member", "2 members"), the pager's ("Pages of members"). */
  noun: readonly [string, string];
  page: number;
  pageSize: number;
  /** Says the page size in the summary. */
  showPageSize?: boolean;
  onPage: (page: number) => void;
}

/**
 * A page of rows and how many there are in all; or a list read whole. `approximate`: the total is the
 * database's estimate, as the data API gives for `count: 'estimated'` above its exact-count limit.
 */
export type ListData<Row> = { rows: readonly Row[]; total: number; approximate?: boolean } | readonly Row[];

interface PagedListProps<Row> {
  /** As in "Loading the <what>…" and "The <what> could not be loaded." */
  what: string;
  /** The list's query: its data a page of rows with the total, or every row. */
  query: QueryStatus & { data: ListData<Row> | undefined };
  /** Shown when there are no rows: an EmptyState saying what will appear, at the page's heading level. */
  empty: ReactNode;
  /** Placeholders while loading; default: six list rows. */
  loading?: ReactNode;
  /** Previous / Next under the rows; none for a list read whole. */
  paging?: Paging;
  /** The rows, as a table (PagedTable) or a list of their own; `pages` counts the list's pages (estimated). */
  children: (rows: readonly Row[], pages: number, approximate: boolean) => ReactNode;
}

/** A page of rows with its loading, error and empty states and, when paged, the pager under it. */
export function PagedList<Row>({ what, query, empty, loading, paging, children }: PagedListProps<Row>) {
  if (query.isPending || query.isError || query.data === undefined) {
    return <QueryState what={what} query={query} loading={loading} />;
  }
  const {
    rows,
    total,
    approximate = false,
  } = Array.isArray(query.data)
    ? { rows: query.data as readonly Row[], total: query.data.length }
    : (query.data as { rows: readonly Row[]; total: number; approximate?: boolean });
  if (rows.length === 0) {
    // A page past the list's end (an old link, an estimate that was high) is not an empty list.
    return paging && paging.page > 1 ? <PastTheEnd paging={paging} /> : empty;
  }
  if (!paging) return children(rows, 1, false);
  const pages = Math.max(pageCount(total, paging.pageSize), approximate ? paging.page : 1);
  return (
    <>
      {children(rows, pages, approximate)}
      <Pager
        label={paging.noun[1]}
        summary={pageSummary({
          total,
          approximate,
          noun: paging.noun,
          page: paging.page,
          pages,
          perPage: paging.showPageSize ? paging.pageSize : undefined,
        })}
        page={paging.page}
        pages={pages}
        // An estimate may be low: a full page may have another after it.
        more={approximate && rows.length === paging.pageSize}
        onPage={paging.onPage}
      />
    </>
  );
}

/** Page N of a list that ends before it: says so, with the way back to its first page. */
function PastTheEnd({ paging }: { paging: Paging }) {
  return (
    <EmptyState
      icon={SearchX}
      title={`No ${paging.noun[1]} on page ${paging.page}`}
      actions={
        <Button variant="outline" onClick={() => paging.onPage(1)}>
          Go to the first page
        </Button>
      }
    >
      The list ends before this page.
    </EmptyState>
  );
}

/** PagedList with its rows in a DataTable; the caption may say the page (listCaption). */
export function PagedTable<Row extends Keyed>({
  caption,
  columns,
  minWidth,
  rowClassName,
  ...list
}: Omit<PagedListProps<Row>, 'children'> &
  Omit<TableProps<Row>, 'rows' | 'caption'> & {
    caption: ReactNode | ((pages: number, approximate: boolean) => ReactNode);
  }) {
  return (
    <PagedList {...list}>
      {(rows, pages, approximate) => (
        <DataTable
          caption={typeof caption === 'function' ? caption(pages, approximate) : caption}
          columns={columns}
          rows={rows}
          minWidth={minWidth}
          rowClassName={rowClassName}
        />
      )}
    </PagedList>
  );
}
