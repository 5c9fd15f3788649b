import { createBrowserRouter, type RouteObject } from 'react-router';
import { RootLayout } from './layout/root-layout.tsx';
import { RouteError } from './layout/route-error.tsx';
import { NotFoundPage, pages } from './pages.ts';

/** Pages with URLs of their own below them (the admin dashboard's sections, /admin/<section>). */
const NESTED = new Set<string>(['/admin']);

function routePath(path: string): string {
  return NESTED.has(path) ? `${path.slice(1)}/*` : path.slice(1);
}

/** The route list of product §routes; anything else is the not-found page. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      ...Object.entries(pages).map(([path, Page]) =>
        path === '/' ? { index: true, element: <Page /> } : { path: routePath(path), element: <Page /> },
      ),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
