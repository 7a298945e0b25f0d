/**
 * The events of a stream (docs/protocol.md, "Streams"): their types, and the guards that tell them
 * apart. The schemas that check the four `task.*` events are in `stream-event-schemas.ts`.
 */
import type { Usage } from './usage.js';
import type { JsonObject, TaskFailure } from './records.js';

/** A progress update from a stream. */
export type ProgressEvent = {
  type: 'task.progress';
  percent: number;
  estimatedSecondsLeft: number;
};
/** A partial result from a stream. */
export type PartialResultEvent<Result = JsonObject> = {
  type: 'task.partial-result';
  result: Result;
};
/** The successful end of a stream. */
export type CompletedEvent<Result = JsonObject> = {
  type: 'task.completed';
  result: Result | null;
  usage?: Usage;
};
/** The failed end of a stream. */
export type FailedEvent = { type: 'task.failed'; result: TaskFailure };

/**
 * A custom event (`event.<action>`; docs/protocol.md, "Streams"): `type` is fixed, the other fields
 * belong to the task. `eventId` is the message's SSE `id:` line when the service sent one (the id
 * Get Result lists).
 */
export type CustomEvent = { type: `event.${string}`; eventId?: string; [field: string]: unknown };

/** A `task.*` event this client does not know, passed through unvalidated for forward compatibility. */
export type UnknownTaskEvent = { type: `task.${string}`; [field: string]: unknown };

/** Any message of a stream (docs/protocol.md, "Streams"). */
export type StreamEvent<Result = JsonObject> =
  | ProgressEvent
  | PartialResultEvent<Result>
  | CompletedEvent<Result>
  | FailedEvent
  | CustomEvent
  | UnknownTaskEvent;

/** Whether an event ends its stream. */
export function isFinalEvent(event: {
  type: string;
}): event is CompletedEvent<unknown> | FailedEvent {
  return event.type === 'task.completed' || event.type === 'task.failed';
}

/**
 * Whether `event` is of type `type`; narrows it to the members of its union with that literal type.
 * A `switch` on `event.type` cannot narrow a known type such as `task.completed` by itself, since
 * the pass-through type of unknown events (`task.${string}`) matches it too.
 *
 * @example
 * if (isStreamEventType(event, 'task.completed')) show(event.result);
 */
export function isStreamEventType<Event extends { type: string }, Type extends Event['type']>(
  event: Event,
  type: Type,
): event is Extract<Event, { type: Type }> {
  return event.type === type;
}
