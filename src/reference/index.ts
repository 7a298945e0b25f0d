/**
 * `taskwire/reference`: the reference service of the task workflow interface, as one Web-standard
 * `fetch` handler, with its demo tasks and `defineTask` for tasks of your own.
 *
 * @packageDocumentation
 */
export { createReferenceService } from './create-reference-service.js';
export type { ReferenceService } from './create-reference-service.js';
export type {
  ReferenceNotification,
  ReferenceServiceConfig,
  ReferenceServiceLimits,
} from './reference-service-config.js';
export { defineTask } from './define-task.js';
export type {
  AnyTaskDefinition,
  Charge,
  Monetization,
  TaskContext,
  TaskDefinition,
} from './define-task.js';
export {
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  DEMO_USER_TOKENS,
  OTHER_USER_TOKEN,
  demoTaskSchemas,
  demoTasks,
} from './demo-tasks.js';
export type { ErrorReason } from './service-error.js';
export type { RateLimit } from './token-bucket-rate-limiter.js';
export type { NotificationAction } from '../protocol/notification.js';
export { createOpenApiDocument } from './openapi/create-openapi-document.js';
export type { OpenApiDocument, OpenApiDocumentOptions } from './openapi/create-openapi-document.js';
