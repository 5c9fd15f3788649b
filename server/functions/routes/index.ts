import type { Route } from '../../http/routes.ts';
import { ROUTES as GDPR_ROUTES } from '../../product/gdpr/routes/index.ts';
import { ROUTES as NEWS_ROUTES } from '../../product/news/routes/index.ts';
import { ROUTES as PAYMENTS_ROUTES } from '../../product/payments/routes/index.ts';
import { ROUTES as POSTS_ROUTES } from '../../product/posts/routes/index.ts';
import { ROUTES as REPORTS_ROUTES } from '../../product/reports/routes/index.ts';
import type { FunctionsDeps } from '../functions.ts';

/** Every /functions/v1 function, one file each, named as clients call it (decision 088). */
export const ROUTES: Route<FunctionsDeps>[] = [
  ...GDPR_ROUTES,
  ...NEWS_ROUTES,
  ...POSTS_ROUTES,
  ...PAYMENTS_ROUTES,
  ...REPORTS_ROUTES,
];
