import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { cutStreamBody } from '../support/cut-stream-body.js';
import { createTaskClient } from '../../src/client/index.js';
import { TaskwireProvider } from '../../src/react/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTaskSchemas,
  type ReferenceServiceConfig,
} from '../../src/reference/index.js';

/** A transport step between the client and the service; tests use it to drop connections. */
export type Transport = (request: Request) => Promise<Response>;

/**
 * A fresh reference service (in-process, real `fetch` handler), a real client over it, a fresh
 * QueryClient, and a wrapper that provides both. `requests` lists every request as `METHOD path`.
 */
export function createHarness(config: ReferenceServiceConfig = {}) {
  const service = createReferenceService({ timeScale: 0.01, ...config });
  const requests: string[] = [];
  const harness = {
    service,
    requests,
    transport: ((request) => service.fetch(request)) as Transport,
    client: undefined as unknown as ReturnType<typeof createTaskClient<typeof demoTaskSchemas>>,
    queryClient: new QueryClient(),
    count: (pattern: RegExp) => requests.filter((line) => pattern.test(line)).length,
    wrapper: undefined as unknown as (props: { children?: ReactNode }) => ReactNode,
    async close() {
      harness.queryClient.clear();
      await service.close();
    },
  };
  harness.client = createTaskClient({
    baseUrl: 'http://taskwire.test',
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    tasks: demoTaskSchemas,
    fetch: (request) => {
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      return harness.transport(request);
    },
  });
  harness.wrapper = function Wrapper({ children }) {
    return (
      <QueryClientProvider client={harness.queryClient}>
        <TaskwireProvider client={harness.client}>{children}</TaskwireProvider>
      </QueryClientProvider>
    );
  };
  return harness;
}

/**
 * A transport that lets the service answer, then loses the answer, as a dropped connection does.
 * The bodies it lost are kept in `lost`, so a test can see what the service had done.
 */
export function losingAnswers(inner: Transport, times: number): Transport & { lost: unknown[] } {
  let left = times;
  const lost: unknown[] = [];
  const transport = async (request: Request) => {
    const response = await inner(request);
    if (left <= 0) return response;
    left -= 1;
    lost.push(await response.json());
    throw new TypeError('fetch failed: connection reset');
  };
  return Object.assign(transport, { lost });
}

/** Cuts every stream answer after `chunks` chunks (see `cutStreamBody`); other answers pass. */
export function cuttingStreams(
  inner: Transport,
  chunks: number,
  options: { dropTaskId?: boolean } = {},
): Transport {
  return async (request) => {
    const response = await inner(request);
    return response.headers.get('content-type')?.startsWith('text/event-stream')
      ? cutStreamBody(response, chunks, options)
      : response;
  };
}
