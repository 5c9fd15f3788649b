import type { Route } from '../../../http/routes.ts';
import type { NewsDeps } from '../news.ts';
import newsFeedTest from './news-feed-test.ts';
import newsRefresh from './news-refresh.ts';

/** The news functions under /functions/v1, one file each, named as clients call them (decision 088). */
export const ROUTES: Route<{ news: NewsDeps }>[] = [newsFeedTest, newsRefresh];
