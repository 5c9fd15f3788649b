/**
 * Share images (decision 183's `og:image` for brands and products): a 1200×630 PNG with the site's
 * name, the brand's or product's name, its key numbers and its logo or photo when this site stores it
 * (a public object of its own storage, read as a visitor reads it), drawn as SVG and rendered with sharp
 * (loaded on first use). Bounded: the text is cut to fit; a cached image costs no image work (its name
 * is a hash of the card and the stored picture's bytes); one image renders at a time with a time limit,
 * at most SHARE_IMAGE_QUEUE wait (more are answered 503); and the PNGs are cached on disk under DATA_DIR/og/, named by a hash of what they show (so a
 * change of name or numbers makes a new file), at most SHARE_IMAGE_FILES files (the oldest go first).
 * Read as `anon` through the same statements as the page heads, so an image shows only what a visitor
 * could read.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database, Queryable } from '../db/driver.ts';
import { onFirstUse } from '../lazy.ts';
import * as sql from './db.ts';
import { MIN_RATED_VOTES } from './json-ld.ts';
import { escapeXml } from './xml.ts';

export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;
/** Most cached images kept on disk. */
export const SHARE_IMAGE_FILES = 5000;
/** Most renders waiting in line; more at once are refused with 503 (a crawler's burst of new links). */
export const SHARE_IMAGE_QUEUE = 16;

/** The render line is full: answered 503 with Retry-After. */
export class ShareImagesBusy extends Error {
  constructor() {
    super('share images: too many renders waiting');
  }
}

/** Longest one render may take. */
const RENDER_TIMEOUT_SECONDS = 5;

const sharp = onFirstUse(async () => (await import('sharp')).default);

/** What an image shows: a kind label, a title, up to three key numbers, a line under them. */
export interface ShareCard {
  label: string;
  title: string;
  facts: [value: string, caption: string][];
  footer: string;
  /** Leave the top right free for a logo or photo (the title then breaks shorter). */
  pictured?: boolean;
}

/** The logo or photo's square, top right. */
const PICTURE = { left: 880, top: 60, size: 240 } as const;
/** Largest logo or photo read (the buckets allow 2 MB), and its largest pixel count. */
const PICTURE_MAX_BYTES = 5 * 1024 * 1024;
const PICTURE_MAX_PIXELS = 25_000_000;

/**
 * A logo or photo this site stores itself: the object's path in a public bucket of its own storage
 * (`…/storage/v1/object/public/<bucket>/<name>`, whatever the host), or null for any other address —
 * other hosts are never fetched (no outbound requests from a page's image).
 */
export function ownPublicObject(url: string | null): string | null {
  if (!url) return null;
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return null;
  }
  const match =
    /^(?:\/[^/]+)*?\/storage\/v1\/object\/public\/((?:brand-logos|product-images|avatars)\/[A-Za-z0-9._/-]{1,400})$/.exec(
      pathname,
    );
  return match?.[1] && !match[1].split('/').includes('..') ? match[1] : null;
}

/** Text cut to `max` characters with an ellipsis. */
function cut(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/** The title in at most two lines of about `width` characters, broken at words. */
function titleLines(title: string, width = 27): string[] {
  const words = cut(title, 60).split(' ');
  const lines: string[] = [''];
  for (const word of words) {
    const current = lines.at(-1) ?? '';
    if (current && `${current} ${word}`.length > width) {
      if (lines.length === 2) {
        lines[1] = cut(`${current} ${word}`, width);
        break;
      }
      lines.push(word);
    } else lines[lines.length - 1] = current ? `${current} ${word}` : word;
  }
  return lines.map((line) => cut(line, width + 1));
}

export function shareCardSvg(card: ShareCard, siteName: string): string {
  const e = escapeXml;
  const title = titleLines(card.title, card.pictured ? 22 : 27)
    .map((line, index) => `<text x="80" y="${250 + index * 74}" class="title">${e(line)}</text>`)
    .join('');
  const facts = card.facts
    .slice(0, 3)
    .map(
      ([value, caption], index) =>
        `<text x="${80 + index * 360}" y="480" class="value">${e(cut(value, 12))}</text>` +
        `<text x="${80 + index * 360}" y="520" class="caption">${e(cut(caption, 24))}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_IMAGE_WIDTH}" height="${SHARE_IMAGE_HEIGHT}" viewBox="0 0 ${SHARE_IMAGE_WIDTH} ${SHARE_IMAGE_HEIGHT}">
<style>
text { font-family: 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; fill: #f8fafc; }
.site { font-size: 30px; font-weight: 700; fill: #4ade80; }
.label { font-size: 28px; fill: #94a3b8; }
.title { font-size: 58px; font-weight: 700; }
.value { font-size: 48px; font-weight: 700; fill: #4ade80; }
.caption { font-size: 24px; fill: #94a3b8; }
.footer { font-size: 24px; fill: #64748b; }
</style>
<rect width="100%" height="100%" fill="#0f172a"/>
<rect x="0" y="0" width="16" height="100%" fill="#16a34a"/>
<text x="80" y="100" class="site">${e(cut(siteName, 40))}</text>
<text x="80" y="150" class="label">${e(cut(card.label, 50))}</text>
${title}${facts}
<text x="80" y="590" class="footer">${e(cut(card.footer, 80))}</text>
</svg>`;
}

export function createShareImages(deps: {
  db: Database;
  dataDir: string;
  siteName: string;
  /** A public object of this site's storage, as a visitor downloads it (null: none or unreadable). */
  readPublicObject?: (path: string) => Promise<Buffer | null>;
  /** Renders allowed to wait (SHARE_IMAGE_QUEUE). */
  queueLimit?: number;
}) {
  const queueLimit = deps.queueLimit ?? SHARE_IMAGE_QUEUE;
  const dir = join(deps.dataDir, 'og');
  const anon = <T>(fn: (tx: Queryable) => Promise<T>) =>
    deps.db.withScope({ role: 'anon', claims: { role: 'anon' }, readOnly: true }, fn);
  // One render at a time: a burst of new links waits in line instead of taking every core.
  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  let writes = 0;

  /** The logo or photo at `url`, as stored (null: not this site's, unreadable or too large). */
  async function pictureBytes(url: string | null): Promise<Buffer | null> {
    const path = ownPublicObject(url);
    if (!path || !deps.readPublicObject) return null;
    const bytes = await deps.readPublicObject(path).catch(() => null);
    return bytes && bytes.length <= PICTURE_MAX_BYTES ? bytes : null;
  }

  /** Stored bytes as a PNG square for the card, or null when they are not an image sharp can read. */
  async function picture(bytes: Buffer): Promise<Buffer | null> {
    try {
      return await (await sharp())(bytes, { limitInputPixels: PICTURE_MAX_PIXELS, animated: false })
        .timeout({ seconds: RENDER_TIMEOUT_SECONDS })
        .resize(PICTURE.size, PICTURE.size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png()
        .toBuffer();
    } catch {
      return null;
    }
  }

  /**
   * The card's PNG: from the disk cache when it holds it (no image work at all: the name is a hash of
   * the card and the stored picture's bytes), else drawn in the one-at-a-time line, which holds at most
   * SHARE_IMAGE_QUEUE waiting renders; past that the request is refused (ShareImagesBusy, 503).
   */
  async function render(card: ShareCard, stored: Buffer | null = null): Promise<Buffer> {
    const name = `${createHash('sha256')
      .update(JSON.stringify([card, deps.siteName]))
      .update(stored ?? '')
      .digest('hex')}.png`;
    const file = join(dir, name);
    try {
      return await readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (waiting >= queueLimit) throw new ShareImagesBusy();
    waiting++;
    const job = queue.then(async () => {
      waiting--;
      const image = stored ? await picture(stored) : null;
      const drawn = { ...card, pictured: image !== null };
      const png = await (await sharp())(Buffer.from(shareCardSvg(drawn, deps.siteName)), {
        limitInputPixels: 2_000_000,
      })
        .composite(image ? [{ input: image, left: PICTURE.left, top: PICTURE.top }] : [])
        .timeout({ seconds: RENDER_TIMEOUT_SECONDS })
        .png({ compressionLevel: 9, palette: true })
        .toBuffer();
      await mkdir(dir, { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, png);
      await rename(temporary, file);
      if (++writes % 100 === 1) await prune();
      return png;
    });
    queue = job.catch(() => undefined);
    return job;
  }

  /** Keeps at most SHARE_IMAGE_FILES images: the least recently written go first. */
  async function prune(): Promise<void> {
    const names = (await readdir(dir)).filter((name) => name.endsWith('.png'));
    if (names.length <= SHARE_IMAGE_FILES) return;
    const dated = await Promise.all(
      names.map(async (name) => ({
        name,
        at: (await stat(join(dir, name)).catch(() => null))?.mtimeMs ?? 0,
      })),
    );
    dated.sort((a, b) => a.at - b.at);
    for (const { name } of dated.slice(0, names.length - SHARE_IMAGE_FILES)) {
      await unlink(join(dir, name)).catch(() => undefined);
    }
  }

  const plural = (n: number, one: string, many: string) =>
    `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

  /** A live brand's image, or null when there is no such brand (merged and archived ones included). */
  async function brand(slug: string): Promise<Buffer | null> {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) || slug.length > 80) return null;
    const row = await anon((tx) => sql.brandHead(tx, slug));
    if (!row) return null;
    const counted = (row.gas ?? 0) + (row.pass ?? 0);
    const logo = await pictureBytes(row.logo_url);
    return render(
      {
        label: 'Brand Directory',
        title: row.name,
        facts: [
          [String(row.products ?? 0), (row.products ?? 0) === 1 ? 'product' : 'products'],
          [String(row.licences.length), row.licences.length === 1 ? 'state licence' : 'state licences'],
          counted >= MIN_RATED_VOTES
            ? [
                `${Math.round(((row.gas ?? 0) / counted) * 100)}%`,
                `Gas of ${plural(counted, 'vote', 'votes')}`,
              ]
            : ['—', 'too few votes yet'],
        ],
        footer:
          [row.city, row.states.join(', ')].filter(Boolean).join(', ') ||
          'Licences, products and community score',
      },
      logo,
    );
  }

  /** A live product's image, or null when there is none. */
  async function product(id: string): Promise<Buffer | null> {
    if (id.length > 100) return null;
    const row = await anon((tx) => sql.productHead(tx, id));
    if (!row) return null;
    const photo = await pictureBytes(row.image_url);
    return render(
      {
        label: `Pass or Gas · ${row.category}`,
        title: row.name,
        facts:
          row.counted >= MIN_RATED_VOTES
            ? [
                [`${Math.round((row.gas / row.counted) * 100)}%`, 'Gas'],
                [row.counted.toLocaleString('en-US'), 'counted votes'],
              ]
            : [[row.counted.toLocaleString('en-US'), row.counted === 1 ? 'counted vote' : 'counted votes']],
        footer: row.brand_name ? `by ${row.brand_name}` : 'Community votes on cannabis products',
      },
      photo,
    );
  }

  return { brand, product };
}
