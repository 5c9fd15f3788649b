import type { Route } from '../../../http/routes.ts';
import type { EvidenceDeps } from '../evidence.ts';
import evidenceUpload from './evidence-upload.ts';

/** The reports functions under /functions/v1, one file each, named as clients call them (decision 088). */
export const ROUTES: Route<{ evidence: EvidenceDeps }>[] = [evidenceUpload];
