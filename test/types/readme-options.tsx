import { CreditCostPreview, useSubmitTask, useTaskOptions } from 'taskwire';

export function TranslateButton({ text, credits }: { text: string; credits: number }) {
  const params = { text, targetLanguage: 'en' };
  const options = useTaskOptions('translate-text', params); // debounced, one request per params
  const submit = useSubmitTask('translate-text');

  return (
    <CreditCostPreview
      status={options.status}
      quote={options.data}
      isUpdating={options.isQuoteStale} // the text changed: the price shown is not yet its price
      error={options.error}
      onRetry={() => void options.refetch()}
      balance={credits}
    >
      {({ canStart }) => (
        <button onClick={() => submit.mutate({ params })} disabled={!canStart}>
          Translate
        </button>
      )}
    </CreditCostPreview>
  );
}
