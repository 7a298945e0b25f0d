/**
 * The README's pattern (the quick start, "Preview the price"): a price, and a start button that
 * follows the preview's `canStart`, so it waits for the price of the params it would start. The
 * jsdom and the Chromium tests of the stale quote both drive it.
 */
import { CreditCostPreview, useTaskOptions, useTaskStream } from '../../src/index.js';
import { useImageCountField } from '../../stories/live/image-count-field.js';

/** A count of images, its price, and a Generate button that streams the task. */
export function PriceThenStart() {
  const { count, field } = useImageCountField();
  const params = { prompt: 'a lighthouse at dusk', count };
  const price = useTaskOptions('generate-images', params);
  const stream = useTaskStream('generate-images');
  return (
    <>
      {field}
      <CreditCostPreview
        status={price.status}
        quote={price.data}
        isUpdating={price.isQuoteStale}
        error={price.error}
        balance={10}
      >
        {({ canStart }) => (
          <button type="button" onClick={() => stream.start(params)} disabled={!canStart}>
            Generate
          </button>
        )}
      </CreditCostPreview>
      <p>Stream: {stream.status}</p>
    </>
  );
}
