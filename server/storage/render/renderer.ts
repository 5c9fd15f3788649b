import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { StorageErrors } from '../errors.ts';
import type { RenditionCache } from './cache.ts';
import { DEFAULT_QUALITY, type Transform } from './transform.ts';

/**
 * Bounds of one transformation (decision 228). A decoded image costs width × height × 4 bytes at
 * most, so 25 megapixels keep one request near 100 MB; two at a time on the two cores the server is
 * sized for, a short queue behind them, and a timeout that stops libvips itself.
 */
export interface RenderLimits {
  maxPixels: number;
  maxSourceBytes: number;
  concurrency: number;
  queue: number;
  timeoutSeconds: number;
}

export const RENDER_LIMITS: RenderLimits = {
  maxPixels: 25_000_000,
  maxSourceBytes: 25 * 1024 * 1024,
  concurrency: 2,
  queue: 32,
  timeoutSeconds: 10,
};

/** The types transformations read; anything else (SVG, HEIC, TIFF, PDF, video, text) is refused. */
const SOURCE_FORMATS: Record<string, OutputFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
};

type OutputFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';

const FIT = { cover: 'cover', contain: 'inside', fill: 'fill' } as const;

/** A rendered image: kept on disk (path) or just made (bytes). */
export interface Rendition {
  contentType: string;
  size: number;
  /** Distinguishes renditions of one object version (part of the ETag). */
  name: string;
  /** The format followed the Accept header: the answer varies with it. */
  negotiated: boolean;
  open(): Readable | Buffer;
}

export interface RenderSource {
  version: string;
  mimetype: string;
  size: number;
  read(): Promise<Readable>;
}

/** Lets `concurrency` tasks run, queues `queue` more, refuses the rest at once (429). */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.queue) throw StorageErrors.renderBusy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes to the next task directly, so `active` never drops below the running count.
      if (next) next();
      else this.active -= 1;
    }
  }
}

/**
 * Image transformations with sharp (Supabase Storage asks imgproxy; decision 228): resize, re-encode
 * without metadata (EXIF, GPS, ICC text — only the orientation is applied first), keep the result in
 * the rendition cache. Identical requests in flight share one render.
 */
export class ImageRenderer {
  private readonly gate: Gate;
  private readonly inFlight = new Map<string, Promise<Rendition>>();

  constructor(
    private readonly cache: RenditionCache,
    private readonly log: FastifyBaseLogger,
    private readonly limits: RenderLimits = RENDER_LIMITS,
  ) {
    this.gate = new Gate(limits.concurrency, limits.queue);
  }

  async render(source: RenderSource, transform: Transform, accept: string | undefined): Promise<Rendition> {
    const essence = (source.mimetype.split(';', 1)[0] ?? '').trim().toLowerCase();
    const sourceFormat = SOURCE_FORMATS[essence];
    if (!sourceFormat) throw StorageErrors.imageUnsupported();
    // As upstream: no format asked → WebP for clients that accept it; 'origin' keeps the source's.
    const negotiated = transform.format === undefined;
    const format: OutputFormat =
      transform.format === 'webp' || transform.format === 'avif'
        ? transform.format
        : negotiated && /\bimage\/webp\b/i.test(accept ?? '')
          ? 'webp'
          : sourceFormat;
    const quality = transform.quality ?? DEFAULT_QUALITY;
    const name = [
      `w${transform.width ?? 0}`,
      `h${transform.height ?? 0}`,
      transform.resize ?? 'cover',
      `q${quality}.${format}`,
    ].join('-');
    const contentType = `image/${format}`;

    const kept = await this.cache.find(source.version, name);
    if (kept) {
      return { contentType, size: kept.size, name, negotiated, open: () => createReadStream(kept.path) };
    }
    const key = `${source.version}/${name}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const rendering = this.gate
      .run(() => this.produce(source, transform, format, quality))
      .then(async (bytes): Promise<Rendition> => {
        await this.cache.keep(source.version, name, bytes).catch((error) => {
          this.log.warn({ err: error }, 'storage: could not keep a rendition (served uncached)');
        });
        return { contentType, size: bytes.length, name, negotiated, open: () => bytes };
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, rendering);
    return rendering;
  }

  private async produce(
    source: RenderSource,
    transform: Transform,
    format: OutputFormat,
    quality: number,
  ): Promise<Buffer> {
    if (source.size > this.limits.maxSourceBytes) throw StorageErrors.imageFileTooLarge();
    const input = await readAll(await source.read(), this.limits.maxSourceBytes);
    let image = sharp(input, {
      limitInputPixels: this.limits.maxPixels,
      failOn: 'error',
      animated: false,
      sequentialRead: true,
    })
      .rotate()
      .timeout({ seconds: this.limits.timeoutSeconds });
    if (transform.width || transform.height) {
      image = image.resize({
        width: transform.width,
        height: transform.height,
        fit: FIT[transform.resize ?? 'cover'],
        withoutEnlargement: true,
      });
    }
    if (format === 'jpeg') image = image.jpeg({ quality });
    else if (format === 'png') image = image.png();
    else if (format === 'webp') image = image.webp({ quality, effort: 4 });
    else if (format === 'avif') image = image.avif({ quality, effort: 2 });
    else image = image.gif();
    try {
      return await image.toBuffer();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/pixel limit/i.test(message)) throw StorageErrors.imageResolutionTooLarge();
      if (/timeout/i.test(message)) throw StorageErrors.renderTimeout();
      this.log.info({ err: error }, 'storage: image could not be rendered');
      throw StorageErrors.imageUnsupported();
    }
  }
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > limit) {
      stream.destroy();
      throw StorageErrors.imageFileTooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
