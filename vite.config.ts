import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
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
