import { useQuery, type UseQueryReturnType } from '@tanstack/vue-query';
import * as vue from 'vue';
import type { MaybeRefOrGetter, Ref } from 'vue';
import * as core from '../query/index.js';
import { useTaskwire } from './taskwire-plugin.js';

type Tasks = core.RegisteredTasks;
type Query = UseQueryReturnType<core.OptionsResult, core.TaskwireError>;

/** What {@link useTaskOptions} returns: vue-query's query result (refs), and whose quote it is. */
export type UseTaskOptionsResult<Params> = UseQueryReturnType<
  core.OptionsResult,
  core.TaskwireError
> & {
  /** The params `data` is the quote for; `undefined` while there is no quote. */
  quotedParams: Readonly<Ref<Params | undefined>>;
  /** Whether `data` is a quote for other params than the latest (by content): start nothing. */
  isQuoteStale: Readonly<Ref<boolean>>;
};

/** What the task would cost with these params, debounced: `useTaskOptions` of `taskwire`. */
export function useTaskOptions<Name extends core.TaskName<Tasks>>(
  task: MaybeRefOrGetter<Name>,
  params: MaybeRefOrGetter<core.TaskParams<Tasks, Name> | undefined>,
  options: MaybeRefOrGetter<core.UseTaskOptionsOptions> = {},
): UseTaskOptionsResult<core.TaskParams<Tasks, Name>> {
  const { client } = useTaskwire();
  // A copy read to its depth, so that a change inside a reactive object counts.
  const latest = () => JSON.parse(JSON.stringify(vue.toValue(params) ?? null)) ?? undefined;
  const settled = vue.shallowRef(latest());
  const debounce = core.createDebounce(settled.value, (value) => (settled.value = value));
  vue.watch(latest, (value) => debounce.set(value, vue.toValue(options).debounceMs ?? 250));
  vue.onScopeDispose(debounce.cancel);
  const ask = () => core.quoteQuery(client, vue.toValue(task), settled.value, vue.toValue(options));
  const query = useQuery(ask as never) as Query;
  // Eager, not a lazy computed: the last own quote must be remembered whether or not it was read.
  const standingOf = core.rememberingQuoteStanding<core.TaskParams<Tasks, Name>>();
  const standing = vue.shallowRef<ReturnType<typeof standingOf>>();
  vue.watchEffect(() => {
    const shown = { data: query.data.value, isPlaceholderData: query.isPlaceholderData.value };
    standing.value = standingOf({ ...shown, keyParams: settled.value ?? {}, params: latest() });
  });
  const isQuoteStale = vue.computed(() => standing.value?.isQuoteStale === true);
  return { ...query, quotedParams: vue.computed(() => standing.value?.quotedParams), isQuoteStale };
}
