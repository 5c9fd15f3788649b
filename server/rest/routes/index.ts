import type { Route } from '../../http/routes.ts';
import type { RestDeps } from '../rest.ts';
import callFunction from './call-function.ts';
import deleteRows from './delete-rows.ts';
import insertRows from './insert-rows.ts';
import readRows from './read-rows.ts';
import unsupported from './unsupported.ts';
import updateRows from './update-rows.ts';

/** Every /rest/v1 endpoint, one file each (decision 088); `unsupported` last: it catches the rest. */
export const ROUTES: Route<RestDeps>[] = [
  readRows,
  insertRows,
  updateRows,
  deleteRows,
  callFunction,
  unsupported,
];
