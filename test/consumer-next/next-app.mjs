// What the Next.js consumer test adds to a fresh `create-next-app` app (its App Router template, with
// every default it sets, `cacheComponents` included): the template is kept as generated except
// for its Google fonts (below), and taskwire is used through its public entries only, as a user of
// the package would: pages that are server components rendering 'use client' components, the
// reference service mounted in a route handler, and the proxy in front of a separate reference
// server, so that the browser holds no token; the proxy's pages read the session as the guide's
// server page does, inside <Suspense> (docs/your-own-service.md, docs/server-rendering.md).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAppFiles } from '../consumer/app-files.mjs';

/** Frames of the render reloaded mid-run: 30 frames of 100 ms, 3 s, time to reload inside it. */
const RESUME_FRAMES = 30;
const RESUME_FRAME_MS = 100;
/** How many renders the streams page starts at once: more than a browser's 6 connections per host. */
export const STREAM_COUNT = 8;
/** Frames of each of those renders: 20 of 200 ms, 4 s, so a price quote asked meanwhile competes. */
const STREAM_FRAMES = 20;
const STREAM_FRAME_MS = 200;

/**
 * How many renders the page of one connection per tab starts (docs/protocol.md, "Resumable streams (0.4)"): 50, each with 20
 * frames of 300 ms (6 s), so they all still run when a price is asked.
 */
export const MANY_STREAM_COUNT = 50;
const MANY_STREAM_FRAMES = 20;
const MANY_STREAM_FRAME_MS = 300;
/** The translation priced first, then after the press: one and two credits (per 100 characters). */
export const QUOTED_TEXTS = { short: 'Hello.', long: 'x'.repeat(150) };

/** Where the reference service is mounted in the app (its route handler's folder). */
export const MOUNTED_BASE = '/api/taskwire';
/** Where the proxy in front of the separate reference server is mounted. */
export const PROXIED_BASE = '/api/proxied';
/** The environment variables the proxy's route handler reads when `next start` runs. */
export const PROXY_ENV = { target: 'TASKWIRE_TARGET', clientToken: 'TASKWIRE_CLIENT_TOKEN' };

/** The app's pages, by what they check. */
export const ROUTES = {
  mountedResume: '/resume',
  proxiedResume: '/proxied/resume',
  proxiedStreams: '/proxied/streams',
  proxiedManyStreams: '/proxied/many-streams',
};

/** The names of the page's parts, which the browser checks find by role and name. */
export const PAGE = {
  renderRegion: 'Render a video',
  renderButton: 'Render',
  renderProgress: 'Render video',
  streamsRegion: 'Many renders',
  streamsButton: `Start ${STREAM_COUNT} renders`,
  streamProgress: (index) => `Render ${index + 1}`,
  quoteButton: 'Price a translation',
  quoteLabel: 'Translation cost',
  quoteAnswered: 'Translation priced',
  manyRegion: 'Fifty renders',
  manyButton: `Start ${MANY_STREAM_COUNT} renders`,
  manyEvents: (index) => `Render ${index + 1} events`,
  longerTextButton: 'Price a longer text',
};

// The app's own task map, in classic zod as most apps write it, registered for the hooks through
// module augmentation and given to the clients for runtime validation.
const tasksTs = `import { z } from 'zod';
import type { TaskSchemas } from 'taskwire';

/** The tasks this app runs, with the shapes of their params, results and custom events. */
export const tasks = {
  'translate-text': {
    params: z.object({ text: z.string().min(1), targetLanguage: z.string() }),
    result: z.object({ text: z.string(), targetLanguage: z.string() }),
  },
  'render-video': {
    params: z.object({ frames: z.int().min(1).optional(), frameMs: z.int().min(1).optional() }),
    result: z.object({ url: z.string(), frames: z.number() }),
    events: z.discriminatedUnion('type', [
      z.object({ type: z.literal('event.frame-rendered'), frame: z.number() }),
      z.object({ type: z.literal('event.thumbnail-ready'), url: z.string() }),
    ]),
  },
} satisfies TaskSchemas;

declare module 'taskwire' {
  interface Register {
    tasks: typeof tasks;
  }
}
`;

// Both tokens in the browser: the reference service mounted on this app's own server, as in
// development. Only the pages under /resume and /streams import it.
const mountedClientTs = `import { createTaskClient } from 'taskwire/client';
import { tasks } from './tasks';

/** The client of the reference service mounted by app${MOUNTED_BASE}/[...path]/route.ts. */
export const mountedClient = createTaskClient({
  baseUrl: '${MOUNTED_BASE}',
  scope: 'demo-user',
  userToken: 'demo-user-token',
  clientToken: 'demo-client-token',
  tasks,
});
`;

// No token in the browser: the proxy adds the app token, and the user's from the app's session.
const proxiedClientTs = `import { createTaskClient } from 'taskwire/client';
import { tasks } from './tasks';

/** A client of the proxy mounted by app${PROXIED_BASE}/[...path]/route.ts: it holds no token. */
export function proxiedClient(userId: string) {
  return createTaskClient({ baseUrl: '${PROXIED_BASE}', scope: userId, tasks });
}
`;

const providersTsx = `'use client';
import { useEffect, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTaskJournal, TaskwireProvider } from 'taskwire';
import type { TaskClient } from 'taskwire/client';
import type { tasks } from '@/lib/tasks';
import 'taskwire/styles.css';

/** One QueryClient and one localStorage journal per page load, around taskwire's provider. */
export function TaskwireProviders({
  client,
  children,
}: {
  client: TaskClient<typeof tasks>;
  children: ReactNode;
}) {
  const [queryClient] = useState(() => new QueryClient());
  const [journal] = useState(() => createTaskJournal({ storage: 'local' }));
  // Marks the page hydrated, for the test to know when the page's buttons work.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <TaskwireProvider client={client} journal={journal}>
        {children}
      </TaskwireProvider>
    </QueryClientProvider>
  );
}
`;

const providersFor = (name, module, client) => `'use client';
import type { ReactNode } from 'react';
import { ${client} } from '@/lib/${module}';
import { TaskwireProviders } from './taskwire-providers';

/** taskwire's providers with the ${client}. */
export function ${name}({ children }: { children: ReactNode }) {
  return <TaskwireProviders client={${client}}>{children}</TaskwireProviders>;
}
`;

// As the guide's app/providers.tsx (docs/server-rendering.md): the client made once per page, for
// the user the server page found in the session.
const proxiedProvidersTsx = `'use client';
import { useState, type ReactNode } from 'react';
import { proxiedClient } from '@/lib/proxied-client';
import { TaskwireProviders } from './taskwire-providers';

/** taskwire's providers with a client of the proxy for the signed-in user. */
export function ProxiedProviders({ userId, children }: { userId: string; children: ReactNode }) {
  const [client] = useState(() => proxiedClient(userId));
  return <TaskwireProviders client={client}>{children}</TaskwireProviders>;
}
`;

const renderPanelTsx = `'use client';
import { streamDisplayStatus, TaskProgress, useTaskStream } from 'taskwire';

const params = { frames: ${RESUME_FRAMES}, frameMs: ${RESUME_FRAME_MS} };

/**
 * Streams a video render recorded in the journal under \`resumeKey\`: after a reload the same hook
 * takes the task up again from Get Result, never posting it twice.
 */
export function RenderPanel({ resumeKey }: { resumeKey: string }) {
  const stream = useTaskStream('render-video', { resumeKey });
  return (
    <section aria-labelledby="render-heading">
      <h2 id="render-heading">${PAGE.renderRegion}</h2>
      <button type="button" disabled={stream.status !== 'idle'} onClick={() => stream.start(params)}>
        ${PAGE.renderButton}
      </button>
      <p id="stream-status">{stream.status}</p>
      <TaskProgress
        label="${PAGE.renderProgress}"
        status={streamDisplayStatus(stream)}
        percent={stream.progress?.percent ?? null}
        estimatedSecondsLeft={stream.progress?.estimatedSecondsLeft ?? null}
      />
      {stream.result && <p role="status">Rendered {stream.result.frames} frames</p>}
      {stream.error && <p role="alert">{stream.error.message}</p>}
      {stream.failure && <p role="alert">{stream.failure.message}</p>}
    </section>
  );
}
`;

const streamsPanelTsx = `'use client';
import { useEffect, useState } from 'react';
import { CreditCostPreview, streamDisplayStatus, TaskProgress, useTaskOptions, useTaskStream } from 'taskwire';

const params = { frames: ${STREAM_FRAMES}, frameMs: ${STREAM_FRAME_MS} };
const translation = { text: 'The quick brown fox jumps over the lazy dog.', targetLanguage: 'fr' };

/** One of the renders: a stream of its own, started with the others. */
function StreamRow({ index, run }: { index: number; run: number }) {
  const stream = useTaskStream('render-video');
  const { start } = stream;
  useEffect(() => {
    if (run > 0) start(params);
  }, [run, start]);
  return (
    <li>
      <TaskProgress
        label={\`Render \${index + 1}\`}
        status={streamDisplayStatus(stream)}
        percent={stream.progress?.percent ?? null}
      />
      {stream.error && <p role="alert">{stream.error.message}</p>}
    </li>
  );
}

/** A price quote asked on demand, while the renders run. */
function Quote() {
  const [asked, setAsked] = useState(false);
  const quote = useTaskOptions('translate-text', asked ? translation : undefined, { debounceMs: 0 });
  return (
    <>
      <CreditCostPreview label="${PAGE.quoteLabel}" status={quote.status} quote={quote.data} error={quote.error}>
        {() => (
          <button type="button" disabled={asked} onClick={() => setAsked(true)}>
            ${PAGE.quoteButton}
          </button>
        )}
      </CreditCostPreview>
      {quote.isSuccess && <p role="status">${PAGE.quoteAnswered}</p>}
    </>
  );
}

/** Starts ${STREAM_COUNT} renders at once, each streamed, and prices a translation meanwhile. */
export function StreamsPanel() {
  const [run, setRun] = useState(0);
  return (
    <section aria-labelledby="streams-heading">
      <h2 id="streams-heading">${PAGE.streamsRegion}</h2>
      <button type="button" disabled={run > 0} onClick={() => setRun(1)}>
        ${PAGE.streamsButton}
      </button>
      <ol>
        {Array.from({ length: ${STREAM_COUNT} }, (_, index) => (
          <StreamRow key={index} index={index} run={run} />
        ))}
      </ol>
      <Quote />
    </section>
  );
}
`;

// Fifty streams through the proxy, each showing its custom events' payloads (the frame numbers
// and the thumbnail's URL) as they come, and a price shown from the start whose params change on
// a press: the page of one connection per tab (docs/protocol.md, "Resumable streams (0.4)").
const manyStreamsPanelTsx = `'use client';
import { useEffect, useState } from 'react';
import { CreditCostPreview, streamDisplayStatus, TaskProgress, useTaskOptions, useTaskStream } from 'taskwire';

const params = { frames: ${MANY_STREAM_FRAMES}, frameMs: ${MANY_STREAM_FRAME_MS} };

/** One of the renders, with the payloads of its custom events. */
function Row({ index, run }: { index: number; run: number }) {
  const [frames, setFrames] = useState<number[]>([]);
  const [thumbnail, setThumbnail] = useState<string>();
  const stream = useTaskStream('render-video', {
    onEvent: (event) => {
      if (event.type === 'event.frame-rendered') setFrames((seen) => [...seen, event.frame]);
      else if (event.type === 'event.thumbnail-ready') setThumbnail(event.url);
    },
  });
  const { start } = stream;
  useEffect(() => {
    if (run > 0) start(params);
  }, [run, start]);
  return (
    <li>
      <TaskProgress
        label={\`Render \${index + 1}\`}
        status={streamDisplayStatus(stream)}
        percent={stream.progress?.percent ?? null}
      />
      <p aria-label={\`Render \${index + 1} events\`}>
        {frames.join(',')}
        {thumbnail && \` \${thumbnail}\`}
      </p>
      {stream.error && <p role="alert">{stream.error.message}</p>}
    </li>
  );
}

/** A translation's price, shown from the start; the press asks for a longer text's price. */
function Price() {
  const [text, setText] = useState(${JSON.stringify(QUOTED_TEXTS.short)});
  const quote = useTaskOptions('translate-text', { text, targetLanguage: 'fr' }, { debounceMs: 0 });
  return (
    <CreditCostPreview
      label="${PAGE.quoteLabel}"
      status={quote.status}
      quote={quote.data}
      error={quote.error}
      isUpdating={quote.isQuoteStale}
    >
      {() => (
        <button type="button" onClick={() => setText(${JSON.stringify(QUOTED_TEXTS.long)})}>
          ${PAGE.longerTextButton}
        </button>
      )}
    </CreditCostPreview>
  );
}

/** Starts ${MANY_STREAM_COUNT} renders at once, each streamed, beside a price. */
export function ManyStreamsPanel() {
  const [run, setRun] = useState(0);
  return (
    <section aria-labelledby="many-heading">
      <h2 id="many-heading">${PAGE.manyRegion}</h2>
      <Price />
      <button type="button" disabled={run > 0} onClick={() => setRun(1)}>
        ${PAGE.manyButton}
      </button>
      <ol>
        {Array.from({ length: ${MANY_STREAM_COUNT} }, (_, index) => (
          <Row key={index} index={index} run={run} />
        ))}
      </ol>
    </section>
  );
}
`;

const pageTsx = (
  title,
  providers,
  body,
  imports,
) => `import { ${providers} } from '@/components/${kebab(providers)}';
${imports}

export default function Page() {
  return (
    <main className="p-8">
      <h1>${title}</h1>
      <${providers}>
        ${body}
      </${providers}>
    </main>
  );
}
`;

// A page as the guide's server page (docs/server-rendering.md, "The page that reads the session"):
// the session read with \`await cookies()\` in a component inside <Suspense>, which Cache Components
// (on in the template) requires, and the user's id handed to the providers as the client's scope.
const sessionPageTsx = (title, body, imports) => `import { cookies } from 'next/headers';
import { Suspense } from 'react';
import { sessionById } from '@/lib/app-session';
import { ProxiedProviders } from '@/components/proxied-providers';
${imports}

export default function Page() {
  return (
    <main className="p-8">
      <h1>${title}</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <SignedIn />
      </Suspense>
    </main>
  );
}

async function SignedIn() {
  const session = await sessionById((await cookies()).get('${SESSION.cookie}')?.value);
  if (session === undefined) return <p>Sign in first.</p>;
  return (
    <ProxiedProviders userId={session.userId}>
      ${body}
    </ProxiedProviders>
  );
}
`;

function kebab(name) {
  return name.replace(
    /[A-Z]/g,
    (letter, index) => `${index > 0 ? '-' : ''}${letter.toLowerCase()}`,
  );
}

// The reference service mounted as the guide shows (docs/your-own-service.md): one service kept
// across hot reloads of \`next dev\` on globalThis, its fetch handler given to each method.
const mountedRouteTs = `import { createReferenceService, type ReferenceService } from 'taskwire/reference';
import { routeHandlers } from 'taskwire/server';

const globalForTaskwire = globalThis as typeof globalThis & { taskwireService?: ReferenceService };
const service = (globalForTaskwire.taskwireService ??= createReferenceService({
  basePath: '${MOUNTED_BASE}',
}));

export const { GET, POST, OPTIONS, HEAD } = routeHandlers(service);
`;

/** The app's session cookie, and the one session it knows, whose user token stays on the server. */
export const SESSION = { cookie: 'app-session', value: 'demo-session' };

// The app's own sessions, as the guide's app-session stands for them: read by the proxy's route
// (the user's token) and by the server pages (the user's id).
const appSessionTs = `/** What the app keeps for a signed-in user: the user's id and token at the task service. */
export interface AppSession {
  userId: string;
  taskwireToken: string;
}

/** The app's sessions: one signed-in user, whose task service token never leaves the server. */
const sessions = new Map<string, AppSession>([
  ['${SESSION.value}', { userId: 'demo-user', taskwireToken: 'demo-user-token' }],
]);

/** The session with this id (the value of the \`${SESSION.cookie}\` cookie), or \`undefined\`. */
export async function sessionById(id: string | undefined): Promise<AppSession | undefined> {
  return id === undefined ? undefined : sessions.get(id);
}

/** The session of a request, from its \`${SESSION.cookie}\` cookie, or \`undefined\` when signed out. */
export async function readSession(request: Request): Promise<AppSession | undefined> {
  const cookies = request.headers.get('cookie') ?? '';
  return sessionById(/(?:^|;\\s*)${SESSION.cookie}=([^;]*)/.exec(cookies)?.[1]);
}
`;

// The proxy in front of a reference server of its own, as the guide shows: the app token from the
// server's environment, the user's token from the app's session cookie; neither from the browser.
const proxiedRouteTs = `import { createTaskProxy, routeHandlers } from 'taskwire/server';
import { readSession } from '@/lib/app-session';

const proxy = createTaskProxy({
  target: process.env.${PROXY_ENV.target} ?? 'http://127.0.0.1:8787',
  clientToken: () => process.env.${PROXY_ENV.clientToken} ?? '',
  tasks: ['render-video', 'translate-text'],
  // events: the default memoryEventLog(), so the proxy offers resumable streams.
  basePath: '${PROXIED_BASE}',
  authorize: async (request) => {
    const session = await readSession(request);
    if (session === undefined) {
      return Response.json(
        { status: 'error', statusCode: 401, reason: 'UNAUTHENTICATED', message: 'Sign in first.' },
        { status: 401 },
      );
    }
    return { userToken: session.taskwireToken };
  },
});

export const { GET, POST, OPTIONS, HEAD } = routeHandlers(proxy);
`;

/**
 * The template's layout loads Geist from Google Fonts with `next/font/google`, which `next build`
 * downloads; on a machine without the internet the build fails. This drops only that: the fonts'
 * imports, their two calls and their class names (the CSS then falls back to the system's fonts).
 */
function withoutGoogleFonts(layout) {
  const fontImport = /^import \{[^}]*\} from ["']next\/font\/google["'];\n/m;
  const fontCall = /^const (\w+) = \w+\(\{[^}]*\}\);\n\n?/gm;
  const names = [...layout.matchAll(fontCall)].map((match) => match[1]);
  let changed = layout.replace(fontImport, '').replace(fontCall, '');
  for (const name of names) changed = changed.replaceAll(`\${${name}.variable} `, '');
  if (changed.includes('next/font/google') || names.some((name) => changed.includes(name)))
    throw new Error(
      `The template's app/layout.tsx no longer looks as expected; its Google fonts are left in it:\n${layout}`,
    );
  return { layout: changed, fonts: names };
}

/**
 * Adds the test's files to the app at `appRoot` (made by create-next-app). Returns the files written
 * and the fonts dropped.
 */
export function addTaskwireToApp(appRoot) {
  const layoutPath = join(appRoot, 'app', 'layout.tsx');
  if (!existsSync(layoutPath)) throw new Error(`create-next-app wrote no ${layoutPath}.`);
  const { layout, fonts } = withoutGoogleFonts(readFileSync(layoutPath, 'utf8'));
  const renderImport = `import { RenderPanel } from '@/components/render-panel';`;
  const streamsImport = `import { StreamsPanel } from '@/components/streams-panel';`;
  const manyStreamsImport = `import { ManyStreamsPanel } from '@/components/many-streams-panel';`;
  const files = {
    'app/layout.tsx': layout,
    'lib/tasks.ts': tasksTs,
    'lib/mounted-client.ts': mountedClientTs,
    'components/taskwire-providers.tsx': providersTsx,
    'components/mounted-providers.tsx': providersFor(
      'MountedProviders',
      'mounted-client',
      'mountedClient',
    ),
    'components/render-panel.tsx': renderPanelTsx,
    'components/streams-panel.tsx': streamsPanelTsx,
    'components/many-streams-panel.tsx': manyStreamsPanelTsx,
    [`app${ROUTES.mountedResume}/page.tsx`]: pageTsx(
      'Resume after reload',
      'MountedProviders',
      '<RenderPanel resumeKey="mounted-render" />',
      renderImport,
    ),
    [`app${MOUNTED_BASE}/[...path]/route.ts`]: mountedRouteTs,
    'lib/app-session.ts': appSessionTs,
    'lib/proxied-client.ts': proxiedClientTs,
    'components/proxied-providers.tsx': proxiedProvidersTsx,
    [`app${PROXIED_BASE}/[...path]/route.ts`]: proxiedRouteTs,
    [`app${ROUTES.proxiedResume}/page.tsx`]: sessionPageTsx(
      'Resume after reload, through the proxy',
      '<RenderPanel resumeKey="proxied-render" />',
      renderImport,
    ),
    [`app${ROUTES.proxiedStreams}/page.tsx`]: sessionPageTsx(
      'Many streams, through the proxy',
      '<StreamsPanel />',
      streamsImport,
    ),
    [`app${ROUTES.proxiedManyStreams}/page.tsx`]: sessionPageTsx(
      'Fifty streams, one connection, through the proxy',
      '<ManyStreamsPanel />',
      manyStreamsImport,
    ),
  };
  return { files: writeAppFiles(appRoot, files), fonts };
}
