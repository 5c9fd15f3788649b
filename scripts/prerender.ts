/**
 * The build's prerender step (decision 157), run by `vite build` (vite.config.ts `builder.buildApp`)
 * after the browser build: builds web/src/prerender.tsx for Node, renders each public page with the
 * real components, and writes the page's HTML document into web/dist/prerendered/ — the built
 * index.html with the page's markup inside `<div id="root">`, its `<title>`, and the chunks the app
 * preloads for it once the page has painted. The server sends these for the pages' exact paths
 * (server/http/prerendered.ts); everything else keeps the empty index.html.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ViteBuilder } from 'vite';
import { CONFIG_PLACEHOLDERS, escapeHtml } from '../server/http/prerendered.ts';

/** Where the Node build of the prerender goes: inside the project, so it finds node_modules. */
export const PRERENDER_BUILD_DIR = 'node_modules/.cache/highgrade-prerender';
/** The folder of web/dist holding the prerendered pages and their index (pages.json). */
export const PRERENDERED_DIR = 'prerendered';
/** The marker on `<div id="root">` that tells the app which page the HTML holds (web/src/main.tsx). */
const ROOT_EMPTY = '<div id="root"></div>';

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

/** What web/src/prerender.tsx exports (built for Node; typed here, the web app has its own tsconfig). */
interface PrerenderModule {
  PRERENDERED_PATHS: readonly string[];
  prerenderPage: (path: string) => Promise<{ html: string; title: string }>;
}

/** The page module of a path: app/routes/<path with "/" as "-">.tsx, or home.tsx for "/". */
export function routeModule(path: string): string {
  return `src/app/routes/${path === '/' ? 'home' : path.slice(1).replaceAll('/', '-')}.tsx`;
}

/** The file name of a prerendered page: "index.html" for "/", else the path with "/" as "-". */
export function pageFile(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1).replaceAll('/', '-')}.html`;
}

function unescapeHtml(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/**
 * CSP hashes of the page's inline `style` attributes (Radix renders a few, e.g. `outline:none` on a
 * tab list). The policy allows exactly these with 'unsafe-hashes' (server/http/spa.ts); without them
 * the browser would ignore the attributes, and hydration never sets them again.
 */
export function styleAttributeHashes(html: string): string[] {
  const values = new Set(
    [...html.matchAll(/\sstyle="([^"]*)"/g)].map((match) => unescapeHtml(match[1] ?? '')),
  );
  return [...values].map((value) => `sha256-${createHash('sha256').update(value).digest('base64')}`).sort();
}

/**
 * What the app fetches for a page right after its first paint (web/src/main.tsx preloads these then):
 * the app's start chunk and the page's chunk, with the chunks they import directly, except the tiny
 * ones (an icon), the entry (loaded) and React's (main.tsx imports it first thing anyway). Saves the round trips of
 * finding them one import at a time; the rest is found as they load.
 */
export function pagePreloads(
  manifest: Record<string, ManifestChunk>,
  module: string,
  sizeOf: (file: string) => number,
): string[] {
  const files = new Set<string>();
  for (const key of ['src/start.tsx', module]) {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`prerender: ${key} is not in the build's manifest`);
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) {
      const file = manifest[imported]?.isEntry ? undefined : manifest[imported]?.file;
      if (file && sizeOf(file) >= MIN_PRELOAD_BYTES && !/\/react-[^/]*\.js$/.test(file)) files.add(file);
    }
  }
  return [...files].map((file) => `/${file}`);
}

/** Chunks smaller than this are left to be found by their importer (one more round trip, a few bytes). */
const MIN_PRELOAD_BYTES = 2048;

/** Builds the browser app, then the prerender for Node, then writes the prerendered pages. */
export async function buildAppWithPrerender(builder: ViteBuilder): Promise<void> {
  const { client, ssr } = builder.environments;
  if (!client || !ssr) throw new Error('prerender: the client and ssr environments are missing');
  await builder.build(client);
  await builder.build(ssr);

  const root = builder.config.root;
  const outDir = resolve(root, client.config.build.outDir);
  const manifestPath = join(outDir, '.vite/manifest.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  // The manifest is for this step only; the server has no use for it.
  await rm(join(outDir, '.vite'), { recursive: true, force: true });

  const ssrOut = resolve(root, ssr.config.build.outDir);
  const prerender = (await import(pathToFileURL(join(ssrOut, 'prerender.js')).href)) as PrerenderModule;
  const template = await readFile(join(outDir, 'index.html'), 'utf8');
  if (!template.includes(ROOT_EMPTY)) throw new Error(`prerender: index.html lacks ${ROOT_EMPTY}`);

  const sizes = new Map<string, number>();
  for (const chunk of Object.values(manifest))
    sizes.set(chunk.file, (await stat(join(outDir, chunk.file))).size);

  const target = join(outDir, PRERENDERED_DIR);
  await mkdir(target, { recursive: true });
  const index: Record<string, { file: string; styleHashes: string[] }> = {};
  for (const path of prerender.PRERENDERED_PATHS) {
    const page = await prerender.prerenderPage(path);
    // The server fills these in (server/http/prerendered.ts); a page without them would show the
    // build's values, whatever the deployment's are.
    for (const placeholder of Object.values(CONFIG_PLACEHOLDERS)) {
      if (!page.html.includes(placeholder)) throw new Error(`prerender: ${path} lacks ${placeholder}`);
    }
    const preloads = pagePreloads(manifest, routeModule(path), (file) => sizes.get(file) ?? 0).join(' ');
    const html = template
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
      .replace(
        ROOT_EMPTY,
        `<div id="root" data-prerendered="${escapeHtml(path)}" data-preload="${escapeHtml(preloads)}">${page.html}</div>`,
      );
    await writeFile(join(target, pageFile(path)), html);
    index[path] = { file: pageFile(path), styleHashes: styleAttributeHashes(page.html) };
  }
  await writeFile(join(target, 'pages.json'), `${JSON.stringify(index, null, 2)}\n`);
  await rm(ssrOut, { recursive: true, force: true });
}
