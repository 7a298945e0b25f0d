/**
 * `taskwire/server`: what an app runs on its own server in front of the task workflow service: a
 * proxy that keeps the app token out of the browser (`createTaskProxy`), per-method route
 * handlers for frameworks that want them (`routeHandlers`, for Next.js App Router), and the event
 * log of resumable streams (`memoryEventLog`, or `redisEventLog` from `taskwire/server/redis`). Web-standard
 * only, so it runs in Node, in edge runtimes and in Next.js route handlers; for Express or plain
 * `node:http`, `createNodeHandler` from `taskwire/reference/node` serves it.
 *
 * @packageDocumentation
 */
export {
  createTaskProxy,
  DEFAULT_PROXY_MAX_BODY_BYTES,
  DEFAULT_PROXY_REQUEST_TIMEOUT_MS,
  DEFAULT_PROXY_STREAM_IDLE_TIMEOUT_MS,
} from './create-task-proxy.js';
export type {
  ProxyFetch,
  ProxyTokenSource,
  TaskProxy,
  TaskProxyAuthorization,
  TaskProxyErrorReason,
  TaskProxyOptions,
} from './create-task-proxy.js';
export { routeHandlers } from './route-handlers.js';
export { memoryEventLog } from '../events/memory-event-log.js';
export { EventLogError } from '../events/event-log.js';
export type {
  EventLog,
  EventLogEntry,
  EventLogErrorKind,
  EventLogKey,
  EventLogLimits,
  EventLogRead,
} from '../events/event-log.js';
export type { FetchHandlerObject, RouteHandler, RouteHandlers } from './route-handlers.js';
