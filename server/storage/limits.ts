import { StorageErrors } from './errors.ts';

const WITH_UNIT = /^([0-9]+(?:\.[0-9]+)?)\s*(gb|mb|kb|b)$/i;
const UNITS: Record<string, number> = { gb: 1e9, mb: 1e6, kb: 1e3, b: 1 };

/**
 * A bucket's `file_size_limit` as Supabase accepts it: a whole number of bytes, a string with a unit
 * ("20mb", "1.5GB", "30KB", "3B"; decimal units, as Supabase's parseFileSizeToBytes), or null for no
 * bucket limit. It may not exceed the server's FILE_SIZE_LIMIT: a bucket can only lower it.
 */
export function parseFileSizeLimit(value: unknown, serverLimit: number): number | null {
  if (value === null || value === undefined) return null;
  let bytes: number;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw StorageErrors.invalidFileSizeLimit();
    bytes = value;
  } else if (typeof value === 'string') {
    const match = WITH_UNIT.exec(value.trim());
    if (!match?.[1] || !match[2]) throw StorageErrors.invalidFileSizeLimit();
    bytes = Math.floor(Number.parseFloat(match[1]) * (UNITS[match[2].toLowerCase()] ?? 1));
  } else {
    throw StorageErrors.invalidFileSizeLimit();
  }
  // Supabase treats 0 as "no bucket limit".
  if (bytes === 0) return null;
  if (bytes > serverLimit) {
    throw StorageErrors.invalidRequest(
      `file_size_limit may not exceed the server's upload limit of ${serverLimit} bytes`,
    );
  }
  return bytes;
}

/** The limit an upload into a bucket must stay within. */
export function effectiveSizeLimit(bucketLimit: number | string | null, serverLimit: number): number {
  const bucket = bucketLimit === null ? null : Number(bucketLimit);
  return bucket !== null && Number.isFinite(bucket) && bucket > 0
    ? Math.min(bucket, serverLimit)
    : serverLimit;
}
