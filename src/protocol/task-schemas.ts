/**
 * Typed tasks: a map from task name to the zod schemas of that task's params, result and custom
 * events, and the types derived from it. The wire leaves `params` and `result` to each task
 * (docs/protocol.md, "Records"); a map says what they are for the tasks an app knows.
 */
import type * as z from 'zod/mini';
import type { JsonObject } from './records.js';
import type { CustomEvent, StreamEvent } from './stream-events.js';

/** The schemas of one task: what its params, result and custom events look like. */
export interface TaskSchema {
  /** Params of the task; validated before any request is sent. */
  params: z.core.$ZodType;
  /** The task's final and partial result; validated on receipt. Defaults to any JSON object. */
  result?: z.core.$ZodType;
  /** The task's custom `event.*` events; validated on receipt. Defaults to any custom event. */
  events?: z.core.$ZodType;
}

/** A map from task name to the schemas of that task. */
export type TaskSchemas = Record<string, TaskSchema>;

/** The task names a client accepts: any valid name without a map, the map's names with one. */
export type TaskName<Tasks extends TaskSchemas> = string extends keyof Tasks
  ? string
  : keyof Tasks & string;

/** The params type of a task: from its schema, or any JSON object. */
export type TaskParams<Tasks extends TaskSchemas, Name extends string> = string extends keyof Tasks
  ? JsonObject // No map: every name is a key of `Record<string, …>`, whose params schema says nothing.
  : Name extends keyof Tasks
    ? z.input<Tasks[Name]['params']>
    : JsonObject;

/** The result type of a task: from its schema, or any JSON object. */
export type TaskResult<Tasks extends TaskSchemas, Name extends string> = Name extends keyof Tasks
  ? Tasks[Name] extends { result: infer Result extends z.core.$ZodType }
    ? z.output<Result>
    : JsonObject
  : JsonObject;

/** The custom event type of a task: from its schema, or any custom event. */
export type TaskCustomEvent<
  Tasks extends TaskSchemas,
  Name extends string,
> = Name extends keyof Tasks
  ? Tasks[Name] extends { events: infer Events extends z.core.$ZodType }
    ? z.output<Events> & { eventId?: string }
    : CustomEvent
  : CustomEvent;

/** A stream event of a task, typed by its name. */
export type TaskStreamEvent<Tasks extends TaskSchemas, Name extends string> =
  Exclude<StreamEvent<TaskResult<Tasks, Name>>, CustomEvent> | TaskCustomEvent<Tasks, Name>;
