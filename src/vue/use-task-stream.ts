import * as vue from 'vue';
import type { MaybeRefOrGetter, ToRefs } from 'vue';
import * as core from '../query/index.js';
import { useTaskwire } from './taskwire-plugin.js';

type Tasks = core.RegisteredTasks;
type Event<Name extends core.TaskName<Tasks>> = core.TaskCustomEvent<Tasks, Name>;

/** What {@link useTaskStream} returns: the stream's state as refs, `start(params)`, `attach(taskId)` and `stop()`. */
export type UseTaskStreamResult<Params, Result, Event> = ToRefs<
  Readonly<core.TaskStreamState<Result, Event>>
> &
  core.TaskStreamControls<Params>;

/** The task as a stream, its refs changed at most once per frame: `useTaskStream` of `taskwire`. */
export function useTaskStream<Name extends core.TaskName<Tasks>>(
  task: MaybeRefOrGetter<Name>,
  options: MaybeRefOrGetter<core.UseTaskStreamOptions<Event<Name>>> = {},
): UseTaskStreamResult<core.TaskParams<Tasks, Name>, core.TaskResult<Tasks, Name>, Event<Name>> {
  const { client, journal, queryClient } = useTaskwire();
  const { scope } = client;
  const journals = vue.computed(() =>
    core.createStreamJournals({ ...vue.toValue(options), journal, scope, task: vue.toValue(task) }),
  );
  const callbacks = () => {
    const context = { queryClient, client, journal, startJournal: journals.value.start };
    return core.queryStreamCallbacks(context, vue.toValue(task), vue.toValue(options));
  };
  const first = [callbacks(), vue.toValue(options), journals.value.start] as const;
  const controller = core.hookStreamController(...first);
  vue.watchEffect(() => controller.configure(callbacks()));
  // Idle until mounted, so a server render and hydration match and read no storage; then each flush.
  const state = vue.shallowReactive({ ...controller.getServerSnapshot() });
  const show = () => journals.value.end(Object.assign(state, controller.getSnapshot()));
  let unsubscribe: (() => void) | undefined;
  vue.onMounted(() => (unsubscribe = controller.subscribe(show)) && show());
  vue.onScopeDispose(() => unsubscribe?.());
  const { start, attach, stop } = controller;
  return { ...vue.toRefs(vue.shallowReadonly(state)), start, attach, stop };
}
