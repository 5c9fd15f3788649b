import { UserFacingError } from '#web/lib/error-text.ts';
import { callGdprFunction } from './gdpr-function.ts';

/**
 * Product §server-functions: DELETE /functions/v1/gdpr-data-deletion with {confirm_deletion: true}; the
 * answer reads message. A non-OK answer is "Deletion failed" (§data-rights).
 */
export async function deleteUserData(): Promise<string> {
  const response = await callGdprFunction('gdpr-data-deletion', {
    method: 'DELETE',
    body: JSON.stringify({ confirm_deletion: true }),
  });
  if (!response.ok) throw new UserFacingError('Deletion failed');
  const body = (await response.json().catch(() => ({}))) as { message?: unknown };
  return typeof body.message === 'string' ? body.message : '';
}
