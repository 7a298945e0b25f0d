/**
 * The screen of "Testing your components" (docs/testing-your-components.md): an app's
 * own components, written as an app writes them, with nothing in them for tests. `RenderPanel`
 * streams a video render and shows its progress and result; `ImagesOrder` prices an order with
 * Options, then submits it and follows it.
 * (An app imports from `taskwire`; this repository imports the sources.)
 */
import {
  CreditCostPreview,
  streamDisplayStatus,
  TaskProgress,
  useSubmitTask,
  useTaskOptions,
  useTaskResult,
  useTaskStream,
} from '../../../src/index.js';

/** Renders a short video as a stream: progress while it runs, a link to the video at the end. */
export function RenderPanel() {
  const stream = useTaskStream('render-video');
  const running = ['connecting', 'streaming', 'recovering'].includes(stream.status);
  return (
    <section aria-label="Video">
      <button
        type="button"
        disabled={running}
        onClick={() => stream.start({ frames: 8, frameMs: 100 })}
      >
        Render video
      </button>
      <TaskProgress
        label="Rendering"
        status={streamDisplayStatus(stream)}
        percent={stream.progress?.percent ?? null}
        estimatedSecondsLeft={stream.progress?.estimatedSecondsLeft ?? null}
        error={stream.failure ?? stream.error}
      />
      {stream.status === 'completed' && stream.result ? (
        <a href={String(stream.result.url)}>Watch the video</a>
      ) : null}
    </section>
  );
}

const order = { prompt: 'A lighthouse at dusk', count: 2 };

/** Prices two images, submits the order at that price, and says when they are ready. */
export function ImagesOrder() {
  const quote = useTaskOptions('generate-images', order);
  const submit = useSubmitTask('generate-images');
  const record = useTaskResult('generate-images', submit.data?.id);
  const images = record.data?.status === 'COMPLETED' ? record.data.result?.images : undefined;
  return (
    <section aria-label="Images">
      <CreditCostPreview
        status={quote.status}
        quote={quote.data}
        isUpdating={quote.isQuoteStale}
        error={quote.error}
      >
        {({ canStart }) => (
          <button
            type="button"
            disabled={!canStart || submit.isPending || submit.isSuccess}
            onClick={() => submit.mutate({ params: order })}
          >
            {submit.isPending ? 'Ordering…' : `Order for ${quote.data?.credits} credits`}
          </button>
        )}
      </CreditCostPreview>
      {submit.isError ? <p role="alert">{submit.error.message}</p> : null}
      {Array.isArray(images) ? <p role="status">Ready: {images.length} images</p> : null}
    </section>
  );
}
