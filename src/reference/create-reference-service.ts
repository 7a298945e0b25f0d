/**
 * The reference service (docs/protocol.md, "The reference service"): one Web-standard handler,
 * `fetch(request) → Response`, that serves every endpoint of the task workflow interface in memory.
 * It uses only Web APIs, so it runs in Node behind `node:http`, on a Vite dev server, and inside a
 * browser tab alike. This module only wires the parts together: the shared state
 * (`service-context.ts`), the request pipeline (`handle-request.ts`), the endpoints (`endpoints/`)
 * and CORS (`cors.ts`).
 */
import { addCorsHeaders } from './cors.js';
import { handleRequest } from './handle-request.js';
import { errorResponse } from './json-response.js';
import type { ReferenceNotification, ReferenceServiceConfig } from './reference-service-config.js';
import { createServiceContext } from './service-context.js';
import { ServiceError } from './service-error.js';

/** A running reference service. */
export interface ReferenceService {
  /** Answers one request, as a Web `fetch` handler; never rejects. */
  fetch(request: Request): Promise<Response>;
  /** Every notification sent so far, oldest first. */
  readonly notifications: readonly ReferenceNotification[];
  /** Aborts running tasks, ends open streams, clears every timer; later tasks are refused. */
  close(): Promise<void>;
}

/** Creates a reference service (docs/protocol.md, "The reference service"). */
export function createReferenceService(config: ReferenceServiceConfig = {}): ReferenceService {
  const context = createServiceContext(config);
  return {
    async fetch(request) {
      let response: Response;
      try {
        response = await handleRequest(context, request);
      } catch (error) {
        // Every refusal is a ServiceError; anything else is a fault of the service, whose details
        // stay out of the answer.
        response = errorResponse(
          error instanceof ServiceError
            ? error
            : new ServiceError(500, 'INTERNAL', 'The service failed to answer this request.'),
        );
      }
      return addCorsHeaders(response, request, context.corsOrigins, context.events !== undefined);
    },
    notifications: context.notifications,
    close() {
      return context.close();
    },
  };
}
