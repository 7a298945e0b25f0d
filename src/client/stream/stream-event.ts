/**
 * Checking one stream message (docs/protocol.md, "Streams"): its JSON object, a known `task.*`
 * event against its schema (and the task's result schema), a custom event against the task's
 * event schema, an unknown `task.*` passed through. Shared by the stream, the events read and the
 * multiplexed read, which all deliver the same events.
 */
import * as z from 'zod/mini';
import { protocolError } from '../error-factories.js';
import type { TaskwireError } from '../errors.js';
import { describeIssues } from '../../protocol/describe-issues.js';
import { knownStreamEventSchemas } from '../../protocol/stream-event-schemas.js';
import type { TaskSchema } from '../../protocol/task-schemas.js';

/** What checking a message needs to know. */
export interface StreamEventContext {
  /** The task's schemas (result, custom events), when the client has them. */
  schema: TaskSchema | undefined;
  /** The task the message belongs to, for errors. */
  taskId: string | undefined;
  /**
   * Where a custom event's `eventId` comes from: the message's SSE `id:` line (`sseId`) in a 0.3
   * stream, or its own `eventId` member in a resumable one, whose `id:` is the position
   * (docs/protocol.md, "Resumable streams (0.4)").
   */
  eventIdFrom: { sseId: string | undefined } | 'message';
}

/** Parses a message's data as JSON, or throws a `protocol` error. */
export function parseStreamData(data: string, taskId: string | undefined): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch (error) {
    throw protocolError('A stream event', 'its data is not JSON.', taskId, error);
  }
}

function shapeError(
  type: string,
  issues: readonly z.core.$ZodIssue[],
  taskId: string | undefined,
  under?: string,
): TaskwireError {
  const problem = describeIssues(issues, under === undefined ? [] : [under]);
  return protocolError(`The stream event '${type}'`, problem, taskId);
}

/** Checks one message's parsed JSON and returns the event, or throws a `protocol` error. */
export function checkStreamEvent<Event>(value: unknown, context: StreamEventContext): Event {
  const { schema, taskId } = context;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw protocolError('A stream event', 'its data is not a JSON object.', taskId);
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string') {
    throw protocolError('A stream event', 'type: expected a string.', taskId);
  }
  if (type.startsWith('event.')) {
    let custom = value as Record<string, unknown>;
    const eventSchema = schema?.events;
    if (eventSchema !== undefined) {
      const parsed = z.safeParse(eventSchema, value);
      if (!parsed.success) throw shapeError(type, parsed.error.issues, taskId);
      custom = parsed.data as Record<string, unknown>;
    }
    if (context.eventIdFrom === 'message') {
      const eventId = (value as { eventId?: unknown }).eventId;
      if (eventId !== undefined && (typeof eventId !== 'string' || eventId === '')) {
        throw protocolError(`The stream event '${type}'`, 'eventId: expected a string.', taskId);
      }
      if (eventId !== undefined) custom.eventId = eventId;
    } else {
      const { sseId } = context.eventIdFrom;
      if (sseId !== undefined && sseId !== '') custom.eventId = sseId;
    }
    return custom as Event;
  }
  if (!Object.hasOwn(knownStreamEventSchemas, type)) {
    // A `task.*` type this client does not know comes from a newer service and is passed on
    // (docs/protocol.md, "Streams").
    if (type.startsWith('task.')) return value as Event;
    throw protocolError(`The stream event '${type}'`, 'type: expected task.* or event.*.', taskId);
  }
  const known = knownStreamEventSchemas[type as keyof typeof knownStreamEventSchemas];
  const parsed = z.safeParse(known, value);
  if (!parsed.success) throw shapeError(type, parsed.error.issues, taskId);
  const event = parsed.data as { type: string; result?: unknown };
  const resultSchema = schema?.result;
  if (
    resultSchema !== undefined &&
    (type === 'task.partial-result' || type === 'task.completed') &&
    event.result !== null
  ) {
    const result = z.safeParse(resultSchema, event.result);
    if (!result.success) throw shapeError(type, result.error.issues, taskId, 'result');
    event.result = result.data;
  }
  return event as Event;
}
