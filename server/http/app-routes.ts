import { NESTED_ROUTES, ROUTE_PATHS } from '#web/app/route-paths.ts';

/**
 * Whether a path is one of the web app's pages by its route (decision 170), whatever its segments
 * look like: a username such as `nina.grows` or `pat.js` is a page at `/u/nina.grows`. The history
 * fallback cannot tell a page from a missing file by its extension alone.
 */
export function isAppRoute(path: string): boolean {
  const segments = path.split('/').slice(1);
  if (segments.some((segment) => segment === '')) return path === '/';
  return ROUTES.some((route) => matches(route, segments));
}

interface Route {
  segments: string[];
  nested: boolean;
}

const ROUTES: Route[] = ROUTE_PATHS.filter((path) => path !== '/').map((path) => ({
  segments: path.split('/').slice(1),
  nested: NESTED_ROUTES.has(path),
}));

function matches(route: Route, segments: string[]): boolean {
  if (segments.length < route.segments.length) return false;
  if (segments.length > route.segments.length && !route.nested) return false;
  return route.segments.every((part, index) => part.startsWith(':') || part === segments[index]);
}
