import { CreditCostPreview, useSubmitTask, useTaskOptions } from 'taskwire';

export function TranslateButton({ text, credits }: { text: string; credits: number }) {
  const params = { text, targetLanguage: 'en' };
  const options = useTaskOptions('translate-text', params); // debounced, one request per params
  const submit = useSubmitTask('translate-text');

  return (
    <CreditCostPreview
      status={options.status}
      quote={options.data}
      isUpdating={options.isFetching}
      error={options.error}
      onRetry={() => void options.refetch()}
      balance={credits}
    >
      {({ state, overBudget }) => (
        <button
          onClick={() => submit.mutate({ params })}
          disabled={overBudget || state === 'loading' || state === 'error'}
        >
          Translate
        </button>
      )}
    </CreditCostPreview>
  );
}
