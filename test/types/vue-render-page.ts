// A page's state in a composable of its own: the price of the params as the form changes, a task
// started as a stream and resumed after a reload, and its record read by every other view.
import { computed, reactive } from 'vue';
import { useTaskOptions, useTaskResult, useTaskStream } from 'taskwire/vue';

export function useRenderPage() {
  const form = reactive({ frames: 10, frameMs: 100 });
  // A reactive object, a ref or a getter: a change of the form is priced once it holds still.
  const { data: quote, isQuoteStale } = useTaskOptions('render-video', form);
  const price = computed(() =>
    quote.value === undefined || isQuoteStale.value ? 'Updating…' : `${quote.value.credits ?? 0}`,
  );
  const render = useTaskStream('render-video', { resumeKey: 'render' });
  // The stream writes its record where useTaskResult reads it: this view asks nothing more.
  const { data: record } = useTaskResult('render-video', render.taskId);
  const start = () => render.start({ ...form });
  return { form, price, canStart: computed(() => !isQuoteStale.value), render, record, start };
}
