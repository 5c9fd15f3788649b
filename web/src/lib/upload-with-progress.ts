import { getConfig } from '#web/lib/config.ts';
import { loadSupabase } from '#web/lib/supabase.ts';

/**
 * Uploads a file to a public storage bucket as the signed-in user, reporting progress (XMLHttpRequest:
 * fetch reports no upload progress); resolves to the file's public URL. The storage service checks
 * the bucket's size and type rules and sniffs the bytes (decision 044).
 */
export async function uploadPublicFile(
  bucket: string,
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<string> {
  await uploadFile(bucket, path, file, onProgress);
  const supabase = await loadSupabase();
  return supabase.storage.from(bucket).getPublicUrl(path).data.publicUrl;
}

/**
 * Uploads a file to a bucket (public or private) as the signed-in user, reporting progress; resolves
 * once stored. The storage service's refusals (size, type, content) reject with its message.
 */
export async function uploadFile(
  bucket: string,
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<void> {
  await postFileWithProgress(`/storage/v1/object/${bucket}/${path}`, file, onProgress, {
    'content-type': file.type,
    'cache-control': 'max-age=3600',
  });
}

/**
 * POSTs a file's bytes to a path of the API as the signed-in user, reporting progress
 * (XMLHttpRequest: fetch reports no upload progress); resolves once the server answers 2xx, rejects
 * with the server's `message` otherwise. Storage uploads and the evidence-upload function use it.
 */
export async function postFileWithProgress(
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
  headers: Record<string, string>,
): Promise<void> {
  const supabase = await loadSupabase();
  const { data } = await supabase.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error('No authenticated user');
  const { supabaseUrl, anonKey } = getConfig();
  await new Promise<void>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${supabaseUrl}${path}`);
    request.setRequestHeader('authorization', `Bearer ${token}`);
    request.setRequestHeader('apikey', anonKey);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) resolve();
      else {
        let message = 'File upload failed';
        try {
          message = (JSON.parse(request.responseText) as { message?: string }).message ?? message;
        } catch {}
        reject(new Error(message));
      }
    };
    request.onerror = () => reject(new Error('Network error during file upload'));
    request.send(file);
  });
}

/** A file name's extension, lower-cased letters and digits only (default `jpg`). */
export function fileExtension(name: string): string {
  return (name.split('.').pop() ?? 'jpg').toLowerCase().replace(/[^a-z0-9]/g, '') || 'jpg';
}
