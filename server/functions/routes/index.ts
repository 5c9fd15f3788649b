import type { Route } from '../../http/routes.ts';
import type { FunctionsDeps } from '../functions.ts';
import adminPostPreview from './admin-post-preview.ts';
import adminPostSave from './admin-post-save.ts';
import evidenceUpload from './evidence-upload.ts';
import gdprDataDeletion from './gdpr-data-deletion.ts';
import gdprDataExport from './gdpr-data-export.ts';
import newsFeedTest from './news-feed-test.ts';
import newsRefresh from './news-refresh.ts';
import stripeCheckout from './stripe-checkout.ts';
import stripePortal from './stripe-portal.ts';
import stripeWebhook from './stripe-webhook.ts';
import subscriptionActivate from './subscription-activate.ts';
import subscriptionCancel from './subscription-cancel.ts';

/** Every /functions/v1 function, one file each, named as clients call it (decision 088). */
export const ROUTES: Route<FunctionsDeps>[] = [
  gdprDataExport,
  gdprDataDeletion,
  newsRefresh,
  newsFeedTest,
  adminPostSave,
  adminPostPreview,
  subscriptionActivate,
  subscriptionCancel,
  stripeCheckout,
  stripePortal,
  stripeWebhook,
  evidenceUpload,
];
