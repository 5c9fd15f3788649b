import { defineUrlFilters, pageNumber } from '#web/lib/use-url-filters.ts';
import { filtersOf, type SearchFilters } from '../database.ts';

/** The search as the address keeps it, with how many pages of results are shown ("Show more"). */
export interface ReportSearchFilters extends SearchFilters {
  pages: number;
}

/** ?q=&location=&min=&max=&from=&to=&sort=&brand=&pages= (defaults left out; database.ts reads them). */
export const REPORT_FILTERS = defineUrlFilters<ReportSearchFilters>({
  params: {
    q: 'q',
    location: 'location',
    amountMin: 'min',
    amountMax: 'max',
    from: 'from',
    to: 'to',
    sort: 'sort',
    brand: 'brand',
    pages: 'pages',
  },
  read: (params) => ({ ...filtersOf(params), pages: pageNumber(params.get('pages'), 10) }),
  page: 'pages',
  search: 'q',
});
