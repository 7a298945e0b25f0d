// @vitest-environment node
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import {
  TaskwireProvider,
  useTaskOptions,
  useTaskResult,
  useTaskStream,
} from '../../src/react/index.js';

describe('server rendering', () => {
  it('renders the hooks without a window and without a request', () => {
    expect(typeof window).toBe('undefined');
    let requests = 0;
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: 'u',
      clientToken: 'c',
      fetch: async () => {
        requests += 1;
        return new Response(null, { status: 500 });
      },
    });
    function Page() {
      const result = useTaskResult('echo', 'task-1');
      const quote = useTaskOptions('echo', { message: 'hi' });
      const stream = useTaskStream('echo');
      return <p>{`${result.status} ${quote.status} ${stream.status}`}</p>;
    }
    const html = renderToString(
      <QueryClientProvider client={new QueryClient()}>
        <TaskwireProvider client={client}>
          <Page />
        </TaskwireProvider>
      </QueryClientProvider>,
    );
    expect(html).toContain('pending pending idle');
    expect(requests).toBe(0);
  });
});
