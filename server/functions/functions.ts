import type { DeletionDeps } from '../account-deletion.ts';
import type { ExportDeps } from '../gdpr-export.ts';

/** What the function routes are built from (one per server). */
export interface FunctionRouteDeps {
  export: ExportDeps;
  deletion: DeletionDeps;
}
