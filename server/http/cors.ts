import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * The APIs answer any origin, as a Supabase project does: credentials travel as bearer tokens, never
 * cookies, so a wildcard origin exposes nothing. Registered per service, so the web app's pages stay
 * same-origin only.
 */
export async function registerApiCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposedHeaders: [
      'Content-Range',
      'Content-Location',
      'Content-Disposition',
      'Content-Length',
      'Location',
      'ETag',
      'Preference-Applied',
      'X-Supabase-Api-Version',
      'X-Total-Count',
    ],
    maxAge: 86400,
    strictPreflight: false,
  });
}
