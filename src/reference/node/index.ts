/**
 * `taskwire/reference/node`: the reference service on real `node:http` sockets, and the bridge that
 * serves any Web `fetch` handler (the reference service, a proxy of `taskwire/server`) from a
 * `node:http` server or an Express app. The command-line entry is `cli.ts`.
 *
 * @packageDocumentation
 */
export { createNodeHandler } from './node-handler.js';
export type {
  FetchHandler,
  FetchHandlerHolder,
  NodeHandlerOptions,
  NodeRequestListener,
} from './node-handler.js';
export { startReferenceServer } from './start-reference-server.js';
export type {
  MountableService,
  ReferenceServer,
  StartReferenceServerOptions,
} from './start-reference-server.js';
export type { ServedRequest } from './served-request.js';
