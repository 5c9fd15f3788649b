import { UserFacingError } from '#web/lib/error-text.ts';
import { callGdprFunction } from './gdpr-function.ts';

/**
 * Product §server-functions: POST /functions/v1/gdpr-data-export; the answer is the file. A non-OK
 * answer is "Export failed" (§data-rights).
 */
export async function exportUserData(): Promise<Blob> {
  const response = await callGdprFunction('gdpr-data-export', { method: 'POST' });
  if (!response.ok) throw new UserFacingError('Export failed');
  return response.blob();
}
