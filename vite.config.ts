import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { buildAppWithPrerender, PRERENDER_BUILD_DIR } from './scripts/prerender.ts';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Writes .gz and .br siblings for every text asset once at build time, so the server
 * serves compressed files straight from disk instead of compressing on every request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'highgrade:precompress',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    configResolved(config) {
      // build.outDir is relative to the Vite root (web/), not to the working directory.
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = await readdir(outDir, { recursive: true });
      await Promise.all(
        files
          .filter((file) => /\.(js|css|html|svg|json|txt|webmanifest)$/.test(file))
          .map(async (file) => {
            const path = join(outDir, file);
            const body = await readFile(path);
            if (body.length < 1024) return;
            const [gz, br] = await Promise.all([
              gzipAsync(body, { level: 9 }),
              brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
            ]);
            await Promise.all([writeFile(`${path}.gz`, gz), writeFile(`${path}.br`, br)]);
          }),
      );
    },
  };
}

/**
 * uPlot (1.6.32) makes two Intl formatters when its module loads, and a page's first Intl use sets up
 * ICU: one long task (decision 162). Here they are made on first use instead; the market chart formats
 * its own axis (lib/format.ts), so a page with a chart sets up no ICU. The build fails if uPlot's code
 * no longer reads as expected (an upgrade): look at the new code and adjust.
 */
function uplotIntlOnFirstUse(): Plugin {
  const replacements: [string, string][] = [
    [
      "const numFormatter = new Intl.NumberFormat(domEnv ? nav.language : 'en-US');\nconst fmtNum = val => numFormatter.format(val);",
      "let numFormatter;\nconst fmtNum = val => (numFormatter ??= new Intl.NumberFormat(domEnv ? nav.language : 'en-US')).format(val);",
    ],
    [
      'const localTz = new Intl.DateTimeFormat().resolvedOptions().timeZone;',
      'let localTzFound;\nconst localTz = () => (localTzFound ??= new Intl.DateTimeFormat().resolvedOptions().timeZone);',
    ],
    ['else if (tz == localTz)', 'else if (tz == localTz())'],
  ];
  return {
    name: 'highgrade:uplot-intl-on-first-use',
    transform(code, id) {
      if (!/node_modules[\\/]uplot[\\/]dist[\\/]uPlot\.esm\.js$/.test(id)) return null;
      let out = code;
      for (const [from, to] of replacements) {
        if (out.split(from).length !== 2) {
          throw new Error(`vite.config.ts: uPlot's code changed ("${from.slice(0, 50)}…" is not there once)`);
        }
        out = out.replace(from, to);
      }
      return { code: out, map: null };
    },
  };
}

/** What node_modules paths under these packages (or package paths) look like, on any platform. */
function modules(names: string[]): RegExp {
  const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('/', '[\\\\/]'));
  return new RegExp(`node_modules[\\\\/](${escaped.join('|')})([\\\\/]|$)`);
}

/** The libraries the layout needs to render, besides React (lucide-react: its core, not the icons). */
const STARTUP_VENDOR = [
  'react-router',
  '@tanstack/query-core',
  '@tanstack/react-query',
  'tailwind-merge',
  'clsx',
  'class-variance-authority',
  'get-nonce',
  '@radix-ui/react-slot',
  '@radix-ui/react-compose-refs',
  'lucide-react/dist/esm/createLucideIcon.mjs',
  'lucide-react/dist/esm/Icon.mjs',
  'lucide-react/dist/esm/defaultAttributes.mjs',
  'lucide-react/dist/esm/context.mjs',
  'lucide-react/dist/esm/shared',
];

export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), uplotIntlOnFirstUse(), precompress()],
  define: {
    // What the prerendered footer shows; the app starts from it when hydrating (decision 157).
    __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    sourcemap: false,
    reportCompressedSize: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every page starts with, in two chunks rather than a dozen small ones: fewer requests
          // and preloads after the first paint, and React's own code evaluated in a task of its own
          // (web/src/main.tsx loads it first; decision 157).
          groups: [
            { name: 'react', test: modules(['react', 'react-dom', 'scheduler']), priority: 2 },
            // supabase-js and its clients, named so the bundle bench and browser tests can tell when it
            // loads; PostgREST's client apart, as the public reads load it alone (decision 158). A
            // group takes its modules' dependencies too, unless a group of higher priority has them.
            { name: 'postgrest-js', test: modules(['@supabase/postgrest-js']), priority: 4 },
            {
              name: 'supabase-js',
              test: modules([
                '@supabase/supabase-js',
                '@supabase/auth-js',
                '@supabase/realtime-js',
                '@supabase/storage-js',
                '@supabase/functions-js',
                '@supabase/phoenix',
              ]),
              priority: 3,
            },
            { name: 'vendor', test: modules(STARTUP_VENDOR), priority: 1 },
          ],
        },
      },
    },
  },
  environments: {
    client: {
      // The prerender reads it to preload each page's own chunk; deleted after (scripts/prerender.ts).
      build: { manifest: true },
    },
    ssr: {
      // The public pages rendered in Node at build time (web/src/prerender.tsx, decision 157).
      build: {
        outDir: resolve(PRERENDER_BUILD_DIR),
        emptyOutDir: true,
        target: 'node20',
        rollupOptions: { input: { prerender: 'src/prerender.tsx' } },
      },
    },
  },
  builder: {
    // `vite build` builds the app, then the prerender, then writes the prerendered pages.
    buildApp: buildAppWithPrerender,
  },
  server: {
    // `npm run dev:web` proxies the API to a running server so the SPA can be developed with HMR.
    proxy: {
      '^/(auth|rest|storage|realtime|functions)/v1': {
        target: process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000',
        ws: true,
        changeOrigin: false,
      },
      '/app-config.json': process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000',
    },
  },
});
