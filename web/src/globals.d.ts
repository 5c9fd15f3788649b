/** The year the web app was built (vite.config.ts `define`): what its prerendered pages show. */
declare const __BUILD_YEAR__: number;
