import type { Route } from '../../http/routes.ts';
import type { FunctionsDeps } from '../functions.ts';
import adminPostPreview from './admin-post-preview.ts';
import adminPostSave from './admin-post-save.ts';
import gdprDataDeletion from './gdpr-data-deletion.ts';
import gdprDataExport from './gdpr-data-export.ts';
import newsFeedTest from './news-feed-test.ts';
import newsRefresh from './news-refresh.ts';

/** Every /functions/v1 function, one file each, named as clients call it (decision 088). */
export const ROUTES: Route<FunctionsDeps>[] = [
  gdprDataExport,
  gdprDataDeletion,
  newsRefresh,
  newsFeedTest,
  adminPostSave,
  adminPostPreview,
];
