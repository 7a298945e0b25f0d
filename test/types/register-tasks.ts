/**
 * Type tests of the hooks' typing by task name. This folder is compiled on its own
 * (`tsc -p test/types`), because declaring a `Register` is global to a program.
 */
import {
  useExecuteTask,
  useSubmitTask,
  useTaskOptions,
  useTaskResult,
  useTaskStream,
} from '../../src/index.js';
import type { demoTaskSchemas } from '../../src/reference/index.js';

declare module '../../src/query/register.js' {
  interface Register {
    tasks: typeof demoTaskSchemas;
  }
}

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(_check?: T): void {}

export function TypedHooks() {
  const stream = useTaskStream('render-video');
  stream.start({ frames: 10 });
  // @ts-expect-error frames is a number
  stream.start({ frames: 'ten' });
  expectType<Equal<typeof stream.result, { url: string; frames: number } | null | undefined>>();
  // @ts-expect-error the result is typed, not any
  expectType<Equal<typeof stream.result, string>>();
  const event = stream.events[0];
  if (event?.type === 'event.frame-rendered') expectType<Equal<typeof event.frame, number>>();

  // @ts-expect-error no such task
  useTaskResult('no-such-task', 'id');
  const echo = useTaskResult('echo', 'id');
  const result = echo.data?.result;
  if (result && !('status' in result)) expectType<Equal<typeof result.echo, string>>();

  const submit = useSubmitTask('generate-images');
  submit.mutate({ params: { prompt: 'a cat' } });
  // @ts-expect-error prompt is required
  submit.mutate({ params: {} });

  const execute = useExecuteTask('echo');
  execute.mutate({ params: { message: 'hi' } });
  // @ts-expect-error message is a string
  execute.mutate({ params: { message: 1 } });

  useTaskOptions('translate-text', { text: 'hi', targetLanguage: 'fr' });
  // @ts-expect-error targetLanguage is required
  useTaskOptions('translate-text', { text: 'hi' });
  return null;
}
