import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/driver.ts';
import type { JwtVerifier } from './http/jwt.ts';
import type { Keys } from './keys.ts';

/** What every service is built from; one per running server. */
export interface AppContext {
  config: Config;
  db: Database;
  keys: Keys;
  jwt: JwtVerifier;
  log: FastifyBaseLogger;
}

export interface ServiceOptions {
  ctx: AppContext;
}
