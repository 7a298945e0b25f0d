/**
 * `renderWithTaskwire` and `renderHookWithTaskwire`: Testing Library's `render` and `renderHook`
 * inside both providers the hooks need, over a real client and an in-process reference service, so
 * a component or hook test needs no server, no mock and no setup of its own. Both are built from
 * the same providers, so rendering a screen and rendering a hook set up alike. The only module of
 * `taskwire/testing` that imports React.
 */
import {
  render,
  renderHook,
  type RenderHookResult,
  type RenderResult,
} from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import { createTaskClient } from '../client/create-task-client.js';
import type { TaskClientConfig } from '../client/types.js';
import {
  createReferenceService,
  type ReferenceService,
} from '../reference/create-reference-service.js';
import { DEMO_CLIENT_TOKEN, DEMO_USER_TOKEN } from '../reference/demo-tasks.js';
import {
  TaskwireProvider,
  type AnyTaskClient,
  type TaskwireProviderProps,
} from '../react/taskwire-provider.js';
import type { FetchService } from './fetch-service.js';

/** Options of {@link renderWithTaskwire} and {@link renderHookWithTaskwire}; every member is optional. */
export interface TaskwireTestOptions<Service extends FetchService = ReferenceService> {
  /** The service the client calls in-process. Defaults to a new `createReferenceService()`. */
  service?: Service;
  /**
   * The client the hooks use. Defaults to one on `service`: `baseUrl` `'http://taskwire.test'`, the
   * demo tokens, `fetch` the service's own, and `clientConfig`.
   */
  client?: AnyTaskClient;
  /**
   * More of the default client's configuration, such as `tasks` (per-task schemas, so params are
   * checked before anything is sent) or `requestTimeoutMs`; it wins over the defaults above. Not
   * used when `client` is given.
   */
  clientConfig?: Partial<TaskClientConfig>;
  /**
   * The default client's `scope` (the signed-in user's id), which a `journal` needs to keep
   * anything; `clientConfig.scope` wins over it. Not used when `client` is given. Defaults to none
   * (the client's scope is then its base URL, and a journal stores nothing).
   */
  scope?: string;
  /** The provider's journal (`createTaskJournal`), for a `<TaskList>` or a resumed task. Defaults to none. */
  journal?: TaskwireProviderProps['journal'];
  /** The provider's messages (`de` from `taskwire/locales/de`, or a part). Defaults to English. */
  messages?: TaskwireProviderProps['messages'];
  /** The provider's locale, for figures and times. Defaults to the user's. */
  locale?: TaskwireProviderProps['locale'];
  /** The QueryClient. Defaults to a new one that retries no query and no mutation by default. */
  queryClient?: QueryClient;
  /** A component of the test's own (a `Profiler`, an app's context) around the UI, inside both providers. */
  wrapper?: ComponentType<{ children?: ReactNode }>;
}

/** What the providers were built with, handed back to the test. */
export interface TaskwireTestContext<Service extends FetchService = ReferenceService> {
  /** The client the hooks use. */
  client: AnyTaskClient;
  /** The service: the one given, or the new reference service. */
  service: Service;
  /** The QueryClient the hooks use. */
  queryClient: QueryClient;
}

/** The base URL of the default client; nothing is sent there, the service answers in-process. */
const TEST_BASE_URL = 'http://taskwire.test';

/** The context of `options` and a wrapper component that provides it around its children. */
function taskwireTestProviders<Service extends FetchService>(
  options: TaskwireTestOptions<Service>,
): TaskwireTestContext<Service> & { Providers: ComponentType<{ children?: ReactNode }> } {
  if (
    options.journal !== undefined &&
    options.client === undefined &&
    options.scope === undefined &&
    options.clientConfig?.scope === undefined
  ) {
    // The provider would refuse it too (SCOPE_REQUIRED), naming createTaskClient, which the test
    // never called.
    throw new TypeError(
      "renderWithTaskwire: a journal keeps tasks per user, so give the user's scope with it: { journal, scope: 'user-1' }.",
    );
  }
  const service = options.service ?? (createReferenceService() as FetchService as Service);
  const client: AnyTaskClient =
    options.client ??
    createTaskClient({
      baseUrl: TEST_BASE_URL,
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      fetch: (request) => service.fetch(request),
      ...(options.scope === undefined ? {} : { scope: options.scope }),
      ...options.clientConfig,
    });
  const queryClient =
    options.queryClient ??
    new QueryClient({
      defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
    });
  const Inner = options.wrapper;
  function TaskwireTestProviders({ children }: { children?: ReactNode }) {
    return (
      <QueryClientProvider client={queryClient}>
        <TaskwireProvider
          client={client}
          journal={options.journal}
          messages={options.messages}
          {...(options.locale === undefined ? {} : { locale: options.locale })}
        >
          {Inner ? <Inner>{children}</Inner> : children}
        </TaskwireProvider>
      </QueryClientProvider>
    );
  }
  return { service, client, queryClient, Providers: TaskwireTestProviders };
}

/** Options of {@link renderWithTaskwire}; every member is optional. */
export type RenderWithTaskwireOptions<Service extends FetchService = ReferenceService> =
  TaskwireTestOptions<Service>;

/** What {@link renderWithTaskwire} returns: Testing Library's result, plus what it rendered with. */
export type RenderWithTaskwireResult<Service extends FetchService = ReferenceService> =
  RenderResult & TaskwireTestContext<Service>;

/** Options of {@link renderHookWithTaskwire}: those of {@link renderWithTaskwire}, and `initialProps`. */
export interface RenderHookWithTaskwireOptions<
  Props,
  Service extends FetchService = ReferenceService,
> extends TaskwireTestOptions<Service> {
  /** The props of the hook's first render, as in Testing Library's `renderHook`. */
  initialProps?: Props;
}

/** What {@link renderHookWithTaskwire} returns: Testing Library's result, plus what it rendered with. */
export type RenderHookWithTaskwireResult<
  Result,
  Props,
  Service extends FetchService = ReferenceService,
> = RenderHookResult<Result, Props> & TaskwireTestContext<Service>;

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
  const { Providers, ...context } = taskwireTestProviders(options);
  return Object.assign(render(ui, { wrapper: Providers }), context);
}

/**
 * Renders the hook `callback` with Testing Library's `renderHook`, inside the same providers as
 * {@link renderWithTaskwire}, for a test of one of taskwire's hooks or of an app's own hook built
 * on them. `rerender(props)` keeps both providers; the service is not closed for you. To render a
 * second hook beside the first, on the same client, service and QueryClient, pass the first's
 * result as the options: `renderHookWithTaskwire(useOther, first)`.
 */
export function renderHookWithTaskwire<
  Result,
  Props = undefined,
  Service extends FetchService = ReferenceService,
>(
  callback: (props: Props) => Result,
  options: RenderHookWithTaskwireOptions<Props, Service> = {},
): RenderHookWithTaskwireResult<Result, Props, Service> {
  const { Providers, ...context } = taskwireTestProviders(options);
  const view = renderHook<Result, Props>(callback, {
    wrapper: Providers,
    ...(options.initialProps === undefined ? {} : { initialProps: options.initialProps }),
  });
  return Object.assign(view, context);
}
