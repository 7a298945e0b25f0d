/**
 * Type tests of taskwire/vue: the composables are typed by task name through `Register` (declared
 * on 'taskwire/vue' as a Vue app would; the same interface as test/types/register-tasks.ts
 * declares), take values, refs or getters, and return objects of refs.
 */
import type { Ref } from 'vue';
import { computed, ref } from 'vue';
import {
  createTaskClient,
  createTaskJournal,
  TaskwirePlugin,
  useExecuteTask,
  useSubmitTask,
  useTaskList,
  useTaskOptions,
  useTaskResult,
  useTaskStream,
  type TaskListItem,
  type TaskStreamStatus,
} from 'taskwire/vue';
import { createApp } from 'vue';
import type { OptionsResult } from '../../src/client/index.js';
import type { demoTaskSchemas } from '../../src/reference/index.js';

declare module 'taskwire/vue' {
  interface Register {
    tasks: typeof demoTaskSchemas;
  }
}

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(_check?: T): void {}

export function typedComposables() {
  const client = createTaskClient({ baseUrl: '/taskwire', scope: 'user-1' });
  createApp({}).use(TaskwirePlugin, { client, journal: createTaskJournal() });
  // @ts-expect-error the plugin needs a client
  createApp({}).use(TaskwirePlugin, {});

  const stream = useTaskStream('render-video', { resumeKey: 'render' });
  stream.start({ frames: 10 });
  // @ts-expect-error frames is a number
  stream.start({ frames: 'ten' });
  expectType<Equal<typeof stream.status, Ref<TaskStreamStatus>>>();
  expectType<
    Equal<typeof stream.result.value, { url: string; frames: number } | null | undefined>
  >();
  const event = stream.events.value[0];
  if (event?.type === 'event.frame-rendered') expectType<Equal<typeof event.frame, number>>();

  const id = ref<string | undefined>();
  // @ts-expect-error no such task
  useTaskResult('no-such-task', id);
  const echo = useTaskResult('echo', () => id.value, { polling: { minIntervalMs: 500 } });
  const result = echo.data.value?.result;
  if (result && !('status' in result)) expectType<Equal<typeof result.echo, string>>();

  const submit = useSubmitTask('generate-images', { resumeKey: 'images' });
  submit.mutate({ params: { prompt: 'a cat' } });
  // @ts-expect-error prompt is required
  submit.mutate({ params: {} });
  expectType<Equal<typeof submit.data.value, { id: string; status: 'ACCEPTED' } | undefined>>();

  const execute = useExecuteTask('echo');
  execute.mutate({ params: { message: 'hi' } });
  // @ts-expect-error message is a string
  execute.mutate({ params: { message: 1 } });

  const text = ref('hi');
  const price = useTaskOptions('translate-text', () => ({
    text: text.value,
    targetLanguage: 'fr',
  }));
  // @ts-expect-error targetLanguage is required
  useTaskOptions('translate-text', { text: 'hi' });
  expectType<Equal<typeof price.data.value, OptionsResult | undefined>>();
  expectType<
    Equal<typeof price.quotedParams.value, { text: string; targetLanguage: string } | undefined>
  >();
  expectType<Equal<typeof price.isQuoteStale.value, boolean>>();
  if (price.isQuoteStale.value) return;

  const list = useTaskList(computed(() => ({ active: true })));
  expectType<Equal<typeof list.value, TaskListItem[]>>();
  return list.value.length;
}
