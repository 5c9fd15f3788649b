import type { Route } from '../../../http/routes.ts';
import type { PaymentsDeps } from '../../payments/payments.ts';
import type { DeletionDeps } from '../account-deletion.ts';
import type { ExportDeps } from '../gdpr-export.ts';
import gdprDataDeletion from './gdpr-data-deletion.ts';
import gdprDataExport from './gdpr-data-export.ts';

/** The gdpr functions under /functions/v1, one file each, named as clients call them (decision 088). */
export const ROUTES: Route<{ export: ExportDeps; deletion: DeletionDeps; payments: PaymentsDeps }>[] = [
  gdprDataDeletion,
  gdprDataExport,
];
