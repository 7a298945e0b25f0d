/**
 * What a client made by `createTaskClient` keeps for the framework-free layers beside its public
 * methods: its request context and settings, under a symbol, so that a module only those layers
 * import (src/client/resumable-reads.ts, which the hooks load on demand) can build on it, and an
 * app that never imports that module does not bundle it.
 */
import type { RequestContext } from './request.js';
import type { ClientOperation, CallRecord } from './activity-types.js';
import type { TaskSchema } from '../protocol/task-schemas.js';

/** A client's internals. */
export interface ClientInternals {
  /** How it sends a request. */
  context: RequestContext;
  /** How long a stream or a read may receive no byte. */
  idleTimeoutMs: number;
  /** The deadline of every request but a stream and Execute. */
  requestTimeoutMs: number;
  /** The cap on one event, in bytes. */
  maxEventBytes: number | undefined;
  /** The task's schemas from the client's map, if it has them. */
  schemaOf(task: unknown): TaskSchema | undefined;
  /** Runs one call under a new record of the activity feed. */
  tracked<Answer>(
    operation: ClientOperation,
    task: unknown,
    run: (call: CallRecord) => Promise<Answer>,
  ): Promise<Answer>;
}

/** Where a client keeps its internals. */
export const CLIENT_INTERNALS: unique symbol = Symbol.for('taskwire.clientInternals');

/** The internals of `client`, or `undefined` for an object that is no taskwire client. */
export function clientInternalsOf(client: object): ClientInternals | undefined {
  return (client as { [CLIENT_INTERNALS]?: ClientInternals })[CLIENT_INTERNALS];
}
