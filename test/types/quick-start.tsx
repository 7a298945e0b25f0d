// main.tsx: a client, the two providers, a first hook and a first component.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import {
  createTaskClient,
  CreditCostPreview,
  streamDisplayStatus,
  TaskProgress,
  TaskwireProvider,
  useTaskOptions,
  useTaskStream,
} from 'taskwire';
import 'taskwire/styles.css';

const client = createTaskClient({
  baseUrl: '/taskwire', // where taskwireReference() mounts the reference service (vite.config.ts)
  userToken: 'demo-user-token', // in an app: () => auth.getAccessToken(), asked on every request
  clientToken: 'demo-client-token',
});
const queryClient = new QueryClient();

function GenerateImages() {
  const params = { prompt: 'a lighthouse at dusk', count: 4 };
  const price = useTaskOptions('generate-images', params); // what it will cost, before running it
  const stream = useTaskStream('generate-images'); // progress over server-sent events

  return (
    <>
      <CreditCostPreview
        status={price.status}
        quote={price.data}
        isUpdating={price.isQuoteStale} // a price for earlier params shows as updating
        error={price.error}
        balance={10}
      >
        {({ canStart }) => (
          // Only at a current price within the balance: never at one the user was not shown.
          <button onClick={() => stream.start(params)} disabled={!canStart}>
            Generate
          </button>
        )}
      </CreditCostPreview>
      <TaskProgress
        label="Generate images"
        status={streamDisplayStatus(stream)}
        percent={stream.progress?.percent ?? null}
        estimatedSecondsLeft={stream.progress?.estimatedSecondsLeft ?? null}
        error={stream.failure ?? stream.error}
      />
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={queryClient}>
    <TaskwireProvider client={client}>
      <GenerateImages />
    </TaskwireProvider>
  </QueryClientProvider>,
);
