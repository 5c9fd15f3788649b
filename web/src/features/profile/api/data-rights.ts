import { clearStoredSession } from '#web/lib/auth/stored-session.ts';
import { getConfig } from '#web/lib/config.ts';
import { UserFacingError } from '#web/lib/error-text.ts';
import { loadSupabase } from '#web/lib/supabase.ts';

/** No session: the caller shows "Authentication Required" (product §data-rights). */
export class NoSessionError extends Error {
  override name = 'NoSessionError';
}

async function accessToken(): Promise<string> {
  const supabase = await loadSupabase();
  const { data } = await supabase.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new NoSessionError('No session');
  return token;
}

function functionUrl(name: string): string {
  return `${getConfig().supabaseUrl.replace(/\/$/, '')}/functions/v1/${name}`;
}

/**
 * Product §server-functions: POST /functions/v1/gdpr-data-export with the Bearer access token and JSON
 * content type; the answer is the file. A non-OK answer is "Export failed" (§data-rights).
 */
export async function exportUserData(): Promise<Blob> {
  const token = await accessToken();
  const response = await fetch(functionUrl('gdpr-data-export'), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  });
  if (!response.ok) throw new UserFacingError('Export failed');
  return response.blob();
}

/**
 * Product §server-functions: DELETE /functions/v1/gdpr-data-deletion with {confirm_deletion: true}; the
 * answer reads message. A non-OK answer is "Deletion failed" (§data-rights).
 */
export async function deleteUserData(): Promise<string> {
  const token = await accessToken();
  const response = await fetch(functionUrl('gdpr-data-deletion'), {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ confirm_deletion: true }),
  });
  if (!response.ok) throw new UserFacingError('Deletion failed');
  const body = (await response.json().catch(() => ({}))) as { message?: unknown };
  return typeof body.message === 'string' ? body.message : '';
}

/**
 * After the deletion the account and its sessions are gone on the server: forget the session here
 * only, rather than asking the server to end a session of an account that no longer exists.
 */
export async function forgetDeletedSession(): Promise<void> {
  const supabase = await loadSupabase();
  // With no stored session, supabase-js signs out without calling the server (as sign-out.ts does).
  clearStoredSession();
  await supabase.auth.signOut({ scope: 'local' }).catch(() => {});
}

/** Saves a blob under a file name (an object URL on a temporary link, released afterwards). */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
