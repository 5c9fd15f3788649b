import net from 'node:net';
import { expect, it } from 'vitest';
import { startTestServer } from '#tests/support/test-server.ts';

/**
 * Shutdown lets requests in flight finish, but a client that never finishes its request (or stops
 * reading) must not hold the server open until the request timeout.
 */
it('closes even when a client leaves a request half-sent', async () => {
  const server = await startTestServer();
  const { hostname, port } = new URL(server.url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    'POST /rest/v1/profiles HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":',
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // Resolves after the grace period (seconds), long before the 120 s request timeout.
  await server.close();
  await closed;
  expect(socket.destroyed).toBe(true);
}, 30_000);
