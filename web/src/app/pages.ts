import { lazyPage } from '#web/lib/lazy-page.tsx';
import type { RoutePath } from './route-paths.ts';

/**
 * Every page is its own chunk (product §routes: pages load lazily); the shell only carries the layout.
 * Keyed by path so links can start loading a page's code on hover or focus; exactly the paths of
 * route-paths.ts, which the server's history fallback reads too.
 */
export const pages = {
  '/': lazyPage(() => import('./routes/home.tsx')),
  '/news': lazyPage(() => import('./routes/news.tsx')),
  '/news/posts/:id': lazyPage(() => import('./routes/news-post.tsx')),
  '/market-index': lazyPage(() => import('./routes/market-index.tsx')),
  '/market-index/:slug/methodology': lazyPage(() => import('./routes/market-index-methodology.tsx')),
  '/pass-or-gas': lazyPage(() => import('./routes/pass-or-gas.tsx')),
  '/pass-or-gas/how-rankings-work': lazyPage(() => import('./routes/pass-or-gas-how-rankings-work.tsx')),
  '/pass-or-gas/:id': lazyPage(() => import('./routes/pass-or-gas-product.tsx')),
  '/scammer-database': lazyPage(() => import('./routes/scammer-database.tsx')),
  '/scammer-database/:id': lazyPage(() => import('./routes/scammer-database-report.tsx')),
  '/scammer-database/:id/reply': lazyPage(() => import('./routes/scammer-database-reply.tsx')),
  '/brand-directory': lazyPage(() => import('./routes/brand-directory.tsx')),
  '/brand-directory/:slug': lazyPage(() => import('./routes/brand-directory-brand.tsx')),
  '/auth': lazyPage(() => import('./routes/auth.tsx')),
  '/booking': lazyPage(() => import('./routes/booking.tsx')),
  '/profile': lazyPage(() => import('./routes/profile.tsx')),
  '/u/:username': lazyPage(() => import('./routes/member-profile.tsx')),
  '/admin': lazyPage(() => import('./routes/admin.tsx')),
  '/privacy-policy': lazyPage(() => import('./routes/privacy-policy.tsx')),
  '/terms-of-service': lazyPage(() => import('./routes/terms-of-service.tsx')),
  '/cookie-policy': lazyPage(() => import('./routes/cookie-policy.tsx')),
  '/personal-data': lazyPage(() => import('./routes/personal-data.tsx')),
  '/how-reports-are-reviewed': lazyPage(() => import('./routes/how-reports-are-reviewed.tsx')),
  '/email-confirmed': lazyPage(() => import('./routes/email-confirmed.tsx')),
} as const satisfies Record<RoutePath, unknown>;

export const NotFoundPage = lazyPage(() => import('./routes/not-found.tsx'));

export function preloadPage(path: string): void {
  if (path in pages) pages[path as keyof typeof pages].preload();
}
