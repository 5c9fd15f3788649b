/**
 * The app's routes (product §routes), as plain data: `pages.ts` must give a page for each, and the
 * server's history fallback (server/http/app-routes.ts) reads them to know which paths are pages even
 * when a segment looks like a file name (`/u/nina.grows`, decision 170). `:name` is one segment of
 * anything; a route in NESTED_ROUTES also owns every path below it.
 */
export const ROUTE_PATHS = [
  '/',
  '/news',
  '/news/posts/:id',
  '/market-index',
  '/market-index/:slug/methodology',
  '/pass-or-gas',
  '/pass-or-gas/how-rankings-work',
  '/pass-or-gas/:id',
  '/scammer-database',
  '/scammer-database/:id',
  '/scammer-database/:id/reply',
  '/brand-directory',
  '/brand-directory/:slug',
  '/auth',
  '/booking',
  '/profile',
  '/u/:username',
  '/admin',
  '/privacy-policy',
  '/terms-of-service',
  '/cookie-policy',
  '/personal-data',
  // What "reviewed" means on a Scammer Network report (decision 201): public, with the legal pages.
  '/how-reports-are-reviewed',
  '/email-confirmed',
] as const;

export type RoutePath = (typeof ROUTE_PATHS)[number];

/** Pages with URLs of their own below them (the admin dashboard's sections, /admin/<section>). */
export const NESTED_ROUTES: ReadonlySet<RoutePath> = new Set<RoutePath>(['/admin']);
