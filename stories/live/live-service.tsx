/**
 * The live stories' connection to the reference service: a loader that hands out the service (same-
 * origin HTTP on the dev server, or the same service in-process in a static build), and a decorator
 * that gives each story a fresh client and QueryClient under the taskwire providers, on its screen.
 */
import type { Decorator, Loader } from '@storybook/react-vite';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { createTaskClient, createTaskJournal, TaskwireProvider } from '../../src/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTaskSchemas,
} from '../../src/reference/index.js';
import {
  LIVE_SERVICE_PREFIX,
  liveServiceConfig,
  liveServiceTiming,
  type LiveServiceMode,
} from './live-service-config.js';
import { LiveScreen, type LiveScreenParameters } from './live-screen.js';

// Set by the `taskwire-live-service-mode` plugin of .storybook/main.ts.
declare const __TASKWIRE_LIVE_MODE__: string | undefined;
declare const __TASKWIRE_LIVE_SERVICE_MOUNTED__: boolean | undefined;

/** The mode the service runs in: `test` under Vitest, else `demo`. */
export const liveMode: LiveServiceMode =
  typeof __TASKWIRE_LIVE_MODE__ === 'string' && __TASKWIRE_LIVE_MODE__ === 'test' ? 'test' : 'demo';

/** The service's timing in this mode, for stories that size their params from it. */
export const liveTiming = liveServiceTiming(liveMode);

/** A `fetch` in the client's shape. */
export type LiveFetch = (request: Request) => Promise<Response>;

/** How the stories reach the service. */
export interface LiveTransport {
  /** `http`: the dev server's `/taskwire`; `in-process`: a service running in this tab. */
  kind: 'http' | 'in-process';
  /** The `fetch` the client uses. */
  fetch: LiveFetch;
}

/** What a story may set under `parameters.liveService`. */
export interface LiveServiceParameters {
  /** Wraps the transport's `fetch`, for a story that injects a transport fault. Defaults to none. */
  wrapFetch?: (fetch: LiveFetch) => LiveFetch;
  /** Gives the provider a journal of its own, in memory, fresh per story. Defaults to none. */
  journal?: boolean;
}

let transport: LiveTransport | undefined;

/**
 * Whether the service answers under the prefix on this page's server: decided at build time (a dev
 * server mounts it, a static build has none), so a static build sends no request that must fail.
 */
const serviceMounted =
  typeof __TASKWIRE_LIVE_SERVICE_MOUNTED__ === 'boolean' && __TASKWIRE_LIVE_SERVICE_MOUNTED__;

function findTransport(): LiveTransport {
  if (serviceMounted) return { kind: 'http', fetch: (request) => fetch(request) };
  // A static build has no server: the same service runs in this tab, one per page, under the
  // same base path, so the client's URLs do not change.
  const service = createReferenceService({
    ...liveServiceConfig(liveMode),
    basePath: LIVE_SERVICE_PREFIX,
  });
  return { kind: 'in-process', fetch: (request) => service.fetch(request) };
}

/** Makes the transport once per page and hands it to the story as `loaded.liveTransport`. */
export const liveServiceLoader: Loader = () => {
  transport ??= findTransport();
  return { liveTransport: transport };
};

function LiveProviders({
  transport: found,
  wrapFetch,
  journal: withJournal,
  heading,
  summary,
  children,
}: {
  transport: LiveTransport;
  wrapFetch: LiveServiceParameters['wrapFetch'];
  journal: boolean;
  heading: string;
  summary: string | undefined;
  children: ReactNode;
}) {
  // Fresh per story: no cached record or quote leaks from one story (or test) into the next.
  const [queryClient] = useState(() => new QueryClient());
  const [client] = useState(() =>
    createTaskClient({
      baseUrl: LIVE_SERVICE_PREFIX,
      // Public demo tokens of the reference service; sent as headers, never shown.
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      fetch: wrapFetch ? wrapFetch(found.fetch) : found.fetch,
      tasks: demoTaskSchemas,
      // The demo user's id: a journal keeps tasks per user (SCOPE_REQUIRED without one).
      scope: 'demo-user',
    }),
  );
  const [journal] = useState(() =>
    withJournal ? createTaskJournal({ storage: 'memory' }) : undefined,
  );
  useEffect(() => () => queryClient.clear(), [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      <TaskwireProvider client={client} journal={journal}>
        <LiveScreen
          heading={heading}
          summary={summary}
          note={
            found.kind === 'http'
              ? `Live: the reference service at ${LIVE_SERVICE_PREFIX} on this server.`
              : 'Live: the reference service running in this tab (static build).'
          }
        >
          {children}
        </LiveScreen>
      </TaskwireProvider>
    </QueryClientProvider>
  );
}

/**
 * Puts a story under a fresh client and QueryClient talking to the live service, on a screen
 * headed by the story's name and `parameters.liveScreen.summary`.
 */
export const withLiveService: Decorator = (Story, context) => {
  const found = (context.loaded as { liveTransport?: LiveTransport }).liveTransport;
  if (!found) throw new Error('withLiveService needs liveServiceLoader in the same story.');
  const parameters = context.parameters['liveService'] as LiveServiceParameters | undefined;
  const screen = context.parameters['liveScreen'] as LiveScreenParameters | undefined;
  return (
    <LiveProviders
      key={context.id}
      transport={found}
      wrapFetch={parameters?.wrapFetch}
      journal={parameters?.journal ?? false}
      heading={context.name}
      summary={screen?.summary}
    >
      <Story />
    </LiveProviders>
  );
};

/** Spread into a live story's meta, `...liveService<Args>()`: the loader and the decorator. */
export function liveService<TArgs>(): {
  loaders: Loader<TArgs>[];
  decorators: Decorator<TArgs>[];
} {
  // Neither reads the story's args, so they fit a story of any args.
  return {
    loaders: [liveServiceLoader as Loader<TArgs>],
    decorators: [withLiveService as Decorator<TArgs>],
  };
}
