/**
 * What the hook benchmarks share: real rendering with
 * `createRoot` into the jsdom document, and a reference service in-process with a real client over it.
 */
import { frames } from './hooks-dom.js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createRequire } from 'node:module';
import type * as ReactDomClient from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { createTaskClient } from '../src/client/index.js';
import type { TaskClientConfig } from '../src/client/types.js';
import { TaskwireProvider } from '../src/react/index.js';
import type { AnyTaskClient } from '../src/react/taskwire-provider.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  type ReferenceServiceConfig,
} from '../src/reference/index.js';

export { frames };

// The profiling build of react-dom: production React (under NODE_ENV=production, as `npm run bench`
// sets it) in which <Profiler onRender> still fires. The plain production build never calls it.
// The entry has the client's API but no types of its own.
const { createRoot } = createRequire(import.meta.url)(
  'react-dom/profiling',
) as typeof ReactDomClient;

/** Which React build renders: `production (profiling)` or `development`. */
export const reactBuild =
  process.env.NODE_ENV === 'production' ? 'production (profiling)' : 'development';

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `condition` holds, checking every few milliseconds; throws after `timeoutMs`. */
export async function until(
  condition: () => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await sleep(2);
  }
}

/** Renders `element` with a real React root into a fresh container of the jsdom document; `unmount` is idempotent. */
export function mount(element: ReactNode): { root: Root; unmount: () => void } {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  root.render(element);
  let mounted = true;
  return {
    root,
    unmount() {
      if (!mounted) return;
      mounted = false;
      root.unmount();
      container.remove();
    },
  };
}

type Transport = (request: Request) => Promise<Response>;

/** A client, a QueryClient and the providers around them; `requests` logs every request. */
export interface HooksBenchSetup<Client> {
  client: Client;
  queryClient: QueryClient;
  requests: Array<{ line: string; at: number }>;
  /** Wraps children in `QueryClientProvider` and `TaskwireProvider`. */
  Providers: (props: { children?: ReactNode }) => ReactNode;
  close(): Promise<void>;
}

/** Providers over `setup.client` as it is at render time (a bench may wrap the client first). */
function providersFor(setup: { queryClient: QueryClient; client: AnyTaskClient }) {
  return function Providers({ children }: { children?: ReactNode }) {
    return (
      <QueryClientProvider client={setup.queryClient}>
        <TaskwireProvider client={setup.client}>{children}</TaskwireProvider>
      </QueryClientProvider>
    );
  };
}

/**
 * A fresh reference service in-process, a real client over it (through `transport`, which can
 * reshape answers the way a network would), and a fresh QueryClient.
 */
export function createServiceSetup(
  serviceConfig: ReferenceServiceConfig,
  transport: (request: Request, service: Transport) => Promise<Response> = (request, service) =>
    service(request),
) {
  const service = createReferenceService(serviceConfig);
  const requests: Array<{ line: string; at: number }> = [];
  const client = createTaskClient({
    baseUrl: 'http://taskwire.bench',
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    fetch: (request) => {
      requests.push({
        line: `${request.method} ${new URL(request.url).pathname}`,
        at: performance.now(),
      });
      return transport(request, (inner) => service.fetch(inner));
    },
  });
  const queryClient = new QueryClient();
  const setup: HooksBenchSetup<typeof client> = {
    client,
    queryClient,
    requests,
    Providers: () => null,
    async close() {
      queryClient.clear();
      await service.close();
    },
  };
  setup.Providers = providersFor(setup);
  return setup;
}

/** A real client over `fetch` (no reference service), a fresh QueryClient and the providers. */
export function createFetchSetup(fetch: NonNullable<TaskClientConfig['fetch']>) {
  const client = createTaskClient({
    baseUrl: 'http://taskwire.bench',
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    fetch,
  });
  const queryClient = new QueryClient();
  const setup: HooksBenchSetup<typeof client> = {
    client,
    queryClient,
    requests: [],
    Providers: () => null,
    async close() {
      queryClient.clear();
    },
  };
  setup.Providers = providersFor(setup);
  return setup;
}
