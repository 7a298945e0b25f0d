/**
 * A composable of `taskwire/vue` under test as a Vue app runs it: called in the setup of a component
 * mounted with @vue/test-utils in an app with VueQueryPlugin (a fresh QueryClient, no retries by
 * default) and TaskwirePlugin (a real client on a service in-process, the demo schemas its task
 * map). The component renders what `render` reads of the result, so a test counts the renders
 * the composable's refs cause.
 */
import { QueryClient, VueQueryPlugin } from '@tanstack/vue-query';
import { mount } from '@vue/test-utils';
import { defineComponent, h } from 'vue';
import { createTaskClient, type TaskClientConfig } from '../../src/client/index.js';
import { DEMO_CLIENT_TOKEN, DEMO_USER_TOKEN, demoTaskSchemas } from '../../src/reference/index.js';
import type { FetchService } from '../../src/testing/index.js';
import { TaskwirePlugin, type TaskJournal } from '../../src/vue/index.js';

/** What a composable is mounted with; all but `service` optional. */
export interface VuePageOptions {
  /** The service the client calls in-process. */
  service: FetchService;
  /** TaskwirePlugin's journal. Defaults to none. */
  journal?: TaskJournal;
  /** More of the client's configuration (`scope`, say); wins over the defaults. */
  clientConfig?: Partial<TaskClientConfig>;
  /** The QueryClient. Defaults to a new one that retries no query and no mutation by default. */
  queryClient?: QueryClient;
}

/** Mounts a component whose setup calls `composable` and whose render reads `render(result)`. */
export function mountComposable<Result>(
  composable: () => Result,
  { service, journal, clientConfig, queryClient }: VuePageOptions,
  render: (result: Result) => unknown = () => null,
) {
  const client = createTaskClient({
    baseUrl: 'http://taskwire.test',
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    tasks: demoTaskSchemas,
    fetch: (request) => service.fetch(request),
    ...clientConfig,
  });
  const queries =
    queryClient ??
    new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  let result: Result | undefined;
  let renders = 0;
  const component = defineComponent({
    setup() {
      result = composable();
      return () => {
        renders += 1;
        return h('output', String(JSON.stringify(render(result as Result)) ?? ''));
      };
    },
  });
  const wrapper = mount(component, {
    global: {
      plugins: [
        [VueQueryPlugin, { queryClient: queries }],
        [TaskwirePlugin, { client, ...(journal ? { journal } : {}) }],
      ],
    },
  });
  return {
    result: result as Result,
    client,
    queryClient: queries,
    wrapper,
    /** How many times the component has rendered so far. */
    renders: () => renders,
  };
}
