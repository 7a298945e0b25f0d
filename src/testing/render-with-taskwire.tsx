/**
 * `renderWithTaskwire`: Testing Library's `render` inside both providers the hooks need, over a
 * real client and an in-process reference service, so a component test needs no server, no mock and
 * no setup of its own. The only module of `taskwire/testing` that imports React.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createTaskClient } from '../client/create-task-client.js';
import {
  createReferenceService,
  type ReferenceService,
} from '../reference/create-reference-service.js';
import { DEMO_CLIENT_TOKEN, DEMO_USER_TOKEN } from '../reference/demo-tasks.js';
import { TaskwireProvider, type AnyTaskClient } from '../react/taskwire-provider.js';

/** Anything that answers requests like the reference service does, such as `withFaults(service, …)`. */
interface FetchService {
  fetch(request: Request): Promise<Response>;
}

/** Options of {@link renderWithTaskwire}; every member is optional. */
export interface RenderWithTaskwireOptions<Service extends FetchService = ReferenceService> {
  /** The service the client calls in-process. Defaults to a new `createReferenceService()`. */
  service?: Service;
  /**
   * The client the hooks use. Defaults to one on `service`: `baseUrl` `'http://taskwire.test'`, the
   * demo tokens, `fetch` the service's own.
   */
  client?: AnyTaskClient;
  /** The QueryClient. Defaults to a new one that retries no query and no mutation by default. */
  queryClient?: QueryClient;
}

/** What {@link renderWithTaskwire} returns: Testing Library's result, plus what it rendered with. */
export type RenderWithTaskwireResult<Service extends FetchService = ReferenceService> =
  RenderResult & {
    /** The client the hooks use. */
    client: AnyTaskClient;
    /** The service: the one given, or the new reference service. */
    service: Service;
    /** The QueryClient the hooks use. */
    queryClient: QueryClient;
  };

/** The base URL of the default client; nothing is sent there, the service answers in-process. */
const TEST_BASE_URL = 'http://taskwire.test';

/**
 * Renders `ui` with Testing Library inside `QueryClientProvider` and `TaskwireProvider`: a fresh
 * QueryClient without retries (`useSubmitTask` keeps its own), and a client on the given service or
 * a new reference service. `rerender` keeps both providers. The service is not closed for you: a
 * test that starts long tasks ends with `await service.close()`.
 */
export function renderWithTaskwire<Service extends FetchService = ReferenceService>(
  ui: ReactNode,
  options: RenderWithTaskwireOptions<Service> = {},
): RenderWithTaskwireResult<Service> {
  const service = options.service ?? (createReferenceService() as FetchService as Service);
  const client: AnyTaskClient =
    options.client ??
    createTaskClient({
      baseUrl: TEST_BASE_URL,
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      fetch: (request) => service.fetch(request),
    });
  const queryClient =
    options.queryClient ??
    new QueryClient({
      defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
    });
  function TaskwireTestProviders({ children }: { children?: ReactNode }) {
    return (
      <QueryClientProvider client={queryClient}>
        <TaskwireProvider client={client}>{children}</TaskwireProvider>
      </QueryClientProvider>
    );
  }
  const result = render(ui, { wrapper: TaskwireTestProviders });
  return Object.assign(result, { client, service, queryClient });
}
