/**
 * `taskwire/testing`: what an app's own tests need to exercise its taskwire screens against the real
 * client and an in-process reference service: scripted tasks, network faults on cue, a log of the
 * requests, a `render` and a `renderHook` with both providers, and Mock Service Worker handlers.
 * Needs `@testing-library/react`, an optional peer of the package; `msw` 2, the other, only for
 * `taskwireHandlers`, so an app without msw loads the rest. Nothing in the other entries imports it.
 *
 * @packageDocumentation
 */
export { scriptTask, type ScriptStep, type ScriptTaskOptions } from './script-task.js';
export { withFaults, type Fault } from './with-faults.js';
export type { Endpoint } from '../protocol/match-route.js';
export { recordRequests, type RecordedRequest, type RequestLog } from './record-requests.js';
export type { FetchService } from './fetch-service.js';
export {
  renderHookWithTaskwire,
  renderWithTaskwire,
  type TaskwireTestContext,
  type TaskwireTestOptions,
  type RenderHookWithTaskwireOptions,
  type RenderHookWithTaskwireResult,
  type RenderWithTaskwireOptions,
  type RenderWithTaskwireResult,
} from './render-with-taskwire.js';
export { taskwireHandlers, type TaskwireHandlersOptions } from './taskwire-handlers.js';
