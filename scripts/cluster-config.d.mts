/** Types of scripts/cluster-config.mjs, for the TypeScript that uses it (tests). */
export const DEPLOY_DIR: string;
export function haproxyConfig(options: {
  listen: string;
  servers: string[];
  extraGlobal?: string[];
}): Promise<string>;
export function nginxConfig(options: { listen: string; servers: string[]; prefix: string }): Promise<string>;
