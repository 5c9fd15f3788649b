/** Types of scripts/server-build.mjs, for the TypeScript that uses it (tests, benchmarks). */
export const PROJECT_ROOT: string;
export const BUILD_DIR: string;
export const ENTRY: string;
export function serverBuildIsStale(root?: string): Promise<boolean>;
export function ensureServerBuild(log?: (message: string) => void, root?: string): Promise<string>;
