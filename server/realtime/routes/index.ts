import type { Route } from '../../http/routes.ts';
import type { RealtimeDeps } from '../realtime.ts';
import broadcast from './broadcast.ts';
import broadcastEvent from './broadcast-event.ts';
import websocket from './websocket.ts';

/** Every /realtime/v1 endpoint, one file each (decision 088). */
export const ROUTES: Route<RealtimeDeps>[] = [websocket, broadcast, broadcastEvent];
