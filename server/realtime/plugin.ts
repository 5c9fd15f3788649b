import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { ServiceOptions } from '../context.ts';
import { registerApiCors } from '../http/cors.ts';
import { registerServiceErrors, renderers } from '../http/errors.ts';
import { createRealtime } from './realtime.ts';
import { ROUTES } from './routes/index.ts';

/** Room for the Phoenix envelope around the largest payload a frame may carry. */
const FRAME_ENVELOPE_BYTES = 64 * 1024;

/**
 * /realtime/v1 — the Supabase-Realtime-compatible service: the websocket realtime-js connects to
 * (postgres_changes, broadcast, presence) and the HTTP broadcast API. See architecture.md.
 */
export default async function realtimeService(app: FastifyInstance, options: ServiceOptions): Promise<void> {
  const { ctx } = options;
  await registerApiCors(app);
  registerServiceErrors(app, renderers.plain);

  const deps = await createRealtime(ctx);
  const { service } = deps;

  await app.register(websocket, {
    options: {
      // Frames beyond this are refused by the websocket layer (close 1009); up to it, an oversized
      // payload gets a PayloadSizeExceeded reply and the connection stays open.
      maxPayload: ctx.config.realtime.maxPayloadBytes * 2 + FRAME_ENVELOPE_BYTES,
      perMessageDeflate: false,
    },
    // Our own shutdown replaces the plugin's: clients are told the server is going away.
    preClose: async function (this: FastifyInstance) {
      await service.stop();
      await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()));
    },
  });
  app.addHook('onClose', async () => {
    await service.stop();
  });

  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: ctx.config.realtime.maxPayloadBytes + 1024 },
    (_request, body, done) => done(null, body),
  );

  for (const route of ROUTES) route(app, deps);
}
