import { StorageErrors } from '../errors.ts';

/** The transformations Supabase Storage offers (its `transformationOptionsSchema`), as we apply them. */
export interface Transform {
  width?: number;
  height?: number;
  resize?: 'cover' | 'contain' | 'fill';
  format?: 'origin' | 'webp' | 'avif';
  quality?: number;
}

/** Upstream's limits (IMAGE_TRANSFORMATION_LIMIT_MIN_SIZE / _MAX_SIZE defaults): sizes are clamped, not refused. */
export const MIN_SIZE = 1;
export const MAX_SIZE = 2000;
export const DEFAULT_QUALITY = 80;

/** The JSON schema of the options, for query strings (render routes) and bodies (createSignedUrl). */
export const transformSchema = {
  type: 'object',
  properties: {
    width: { type: 'integer', minimum: 0 },
    height: { type: 'integer', minimum: 0 },
    resize: { type: 'string', enum: ['cover', 'contain', 'fill'] },
    format: { type: 'string', enum: ['origin', 'avif', 'webp'] },
    quality: { type: 'integer', minimum: 20, maximum: 100 },
  },
} as const;

function clamp(value: number): number {
  return Math.min(MAX_SIZE, Math.max(MIN_SIZE, value));
}

/** Options as validated by `transformSchema`, with sizes clamped and zero meaning "not given". */
export function normalizeTransform(input: Partial<Record<keyof Transform, unknown>>): Transform {
  const transform: Transform = {};
  if (typeof input.width === 'number' && input.width > 0) transform.width = clamp(input.width);
  if (typeof input.height === 'number' && input.height > 0) transform.height = clamp(input.height);
  if (input.resize === 'cover' || input.resize === 'contain' || input.resize === 'fill') {
    transform.resize = input.resize;
  }
  if (input.format === 'origin' || input.format === 'webp' || input.format === 'avif') {
    transform.format = input.format;
  }
  if (typeof input.quality === 'number') transform.quality = input.quality;
  return transform;
}

/**
 * The `transformations` claim of a signed URL, in upstream's form (`applyTransformation(t, true)`
 * joined by commas: `height:200,width:300,resize:cover,quality:80,format:webp`), so tokens signed by
 * either server read the same.
 */
export function transformToClaim(transform: Transform): string {
  const segments: string[] = [];
  if (transform.height) segments.push(`height:${transform.height}`);
  if (transform.width) segments.push(`width:${transform.width}`);
  if (transform.width || transform.height) segments.push(`resize:${transform.resize ?? 'cover'}`);
  if (transform.quality) segments.push(`quality:${transform.quality}`);
  if (transform.format && transform.format !== 'origin') segments.push(`format:${transform.format}`);
  return segments.join(',');
}

/** Reads a `transformations` claim back (upstream's setTransformationsFromString); junk is refused. */
export function transformFromClaim(claim: string): Transform {
  const raw: Record<string, unknown> = {};
  for (const part of claim.split(',')) {
    const [name, value] = part.split(':');
    if (!name || value === undefined || value === '') continue;
    if (name === 'width' || name === 'height' || name === 'quality') {
      if (!/^\d{1,5}$/.test(value)) throw StorageErrors.invalidSignature();
      raw[name] = Number(value);
    } else if (name === 'resize' || name === 'format') {
      raw[name] = value;
    }
  }
  if (typeof raw.quality === 'number' && (raw.quality < 20 || raw.quality > 100)) delete raw.quality;
  return normalizeTransform(raw);
}
