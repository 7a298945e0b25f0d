/**
 * Type tests of the typed task map, checked by `tsc` (tsconfig includes test/): each
 * `@ts-expect-error` line must be an error, or the check fails.
 */
import { expectTypeOf } from 'vitest';
import * as z from 'zod/mini';
import {
  createTaskClient,
  isStreamEventType,
  type CustomEvent,
  type JsonObject,
  type OptionsResult,
  type SubmitAnswer,
  type TaskFailure,
  type TaskSchemas,
} from '../../src/client/index.js';

const tasks = {
  echo: { params: z.object({ message: z.string() }), result: z.object({ echo: z.string() }) },
  render: {
    params: z.object({ frames: z.optional(z.number()) }),
    result: z.object({ url: z.string() }),
    events: z.object({ type: z.literal('event.frame-rendered'), frame: z.number() }),
  },
  plain: { params: z.object({}) },
} satisfies TaskSchemas;

const typed = createTaskClient({
  baseUrl: 'http://x.test',
  userToken: 'u',
  clientToken: 'c',
  tasks,
});

expectTypeOf(typed.submit('echo', { message: 'hi' })).resolves.toEqualTypeOf<SubmitAnswer>();
expectTypeOf(typed.options('render', {})).resolves.toEqualTypeOf<OptionsResult>();

// @ts-expect-error: an unknown task name
void typed.submit('nope', {});
// @ts-expect-error: params of the wrong type
void typed.submit('echo', { message: 1 });
// @ts-expect-error: a missing param
void typed.execute('echo', {});

async function results() {
  const record = await typed.getResult('echo', 'id');
  expectTypeOf(record.result).toEqualTypeOf<{ echo: string } | TaskFailure | null>();
  const executed = await typed.execute('render', { frames: 3 });
  expectTypeOf(executed.result).toEqualTypeOf<{ url: string } | TaskFailure | null>();
  const untypedResult = await typed.execute('plain', {});
  expectTypeOf(untypedResult.result).toEqualTypeOf<JsonObject | TaskFailure | null>();
  // The status narrows the result: a failure when FAILED, the task's result (or null) otherwise.
  if (record.status === 'FAILED') expectTypeOf(record.result).toEqualTypeOf<TaskFailure>();
  else expectTypeOf(record.result).toEqualTypeOf<{ echo: string } | null>();
  if (executed.status === 'FAILED') expectTypeOf(executed.result.reason).toEqualTypeOf<string>();
  else expectTypeOf(executed.result).toEqualTypeOf<{ url: string } | null>();
}

async function streams() {
  for await (const event of typed.stream('render', {})) {
    if (event.type === 'event.frame-rendered') {
      expectTypeOf(event.frame).toEqualTypeOf<number>();
      expectTypeOf(event.eventId).toEqualTypeOf<string | undefined>();
    }
    // `===` on `type` leaves the pass-through `task.${string}` type in; the guard narrows exactly.
    if (isStreamEventType(event, 'task.completed')) {
      expectTypeOf(event.result).toEqualTypeOf<{ url: string } | null>();
    }
    if (isStreamEventType(event, 'task.partial-result')) {
      expectTypeOf(event.result).toEqualTypeOf<{ url: string }>();
    }
  }
  expectTypeOf(typed.stream('render', {}).taskId).toEqualTypeOf<string | undefined>();
}

const untyped = createTaskClient({
  baseUrl: 'http://x.test',
  userToken: 'u',
  clientToken: () => Promise.resolve('c'),
});
void untyped.submit('anything-goes', { any: 'object' });
// @ts-expect-error: params must be an object
void untyped.submit('anything', 'text');

async function untypedStream() {
  for await (const event of untyped.stream('x', {})) {
    if (isStreamEventType(event, 'task.progress'))
      expectTypeOf(event.percent).toEqualTypeOf<number>();
    if (event.type === 'event.anything') expectTypeOf(event).toMatchTypeOf<CustomEvent>();
  }
}

void results;
void streams;
void untypedStream;
