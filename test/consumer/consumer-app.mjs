// The consumer app the consumer test writes into a temporary folder: what a React developer gets
// from Vite's react-ts template, plus taskwire used through its public entries only (`taskwire`,
// `taskwire/client`, `taskwire/vite`, `taskwire/styles.css`). Nothing here is a copy of our source:
// the app declares its own task schemas with zod, as a user of the package would.
import {
  appPackageJson,
  jsonText,
  tsconfigJson,
  VITE_APP_OPTIONS,
  VITE_NODE_OPTIONS,
  writeAppFiles,
} from './app-files.mjs';

const SENTENCE = 'The quick brown fox jumps over the lazy dog. ';
const SENTENCES = 6;
/** The text the app prices and translates: 270 characters, so 3 started blocks of 100. */
export const TRANSLATE_TEXT = SENTENCE.repeat(SENTENCES);
/** The language the app translates into. */
export const TARGET_LANGUAGE = 'fr';
/** Frames of the streamed render: 20 frames of 100 ms, about 2 s, long enough to see the bar move. */
export const RENDER_FRAMES = 20;
const RENDER_FRAME_MS = 100;

/** The journal key the render panel's stream is recorded under, so a reload takes it up again. */
export const RENDER_RESUME_KEY = 'render';

/** The journal key of the render submitted and polled in the background, which other tabs find. */
export const BACKGROUND_RESUME_KEY = 'background-render';
/** Frames of the background render: 80 frames of 100 ms, about 8 s: several polls, and time to hand over. */
export const BACKGROUND_FRAMES = 80;

/** The names of the page's parts, which the browser checks find by role and name. */
export const PAGE = {
  translateRegion: 'Translate',
  translateButton: 'Translate',
  translateCost: 'Translation cost',
  translateProgress: 'Translation',
  translateUsage: 'Translation credits',
  renderRegion: 'Render a video',
  renderButton: 'Render',
  renderProgress: 'Render video',
  renderUsage: 'Render credits',
  backgroundRegion: 'Render in the background',
  backgroundButton: 'Submit render',
  backgroundProgress: 'Background render',
  backgroundUsage: 'Background render credits',
};

const packageJson = (tarball, versions) =>
  appPackageJson({
    name: 'taskwire-consumer',
    scripts: { build: 'tsc -b && vite build', preview: 'vite preview' },
    tarball,
    dependencies: ['@tanstack/react-query', 'react', 'react-dom', 'zod'],
    devDependencies: [
      '@types/node',
      '@types/react',
      '@types/react-dom',
      '@vitejs/plugin-react',
      'typescript',
      'vite',
    ],
    versions,
  });

// Vite's react-ts template as it is (type-check-app.mjs checks taskwire's .d.ts files on top): the
// options the Vue app's config shares, and React's own.
const tsconfigApp = tsconfigJson(
  {
    ...VITE_APP_OPTIONS,
    useDefineForClassFields: true,
    jsx: 'react-jsx',
    erasableSyntaxOnly: true,
    noUncheckedSideEffectImports: true,
  },
  ['src'],
);

const tsconfigNode = tsconfigJson(
  {
    ...VITE_NODE_OPTIONS,
    allowImportingTsExtensions: true,
    moduleDetection: 'force',
    noUnusedLocals: true,
    noUnusedParameters: true,
    erasableSyntaxOnly: true,
    noFallthroughCasesInSwitch: true,
    noUncheckedSideEffectImports: true,
  },
  ['vite.config.ts'],
);

const tsconfig = jsonText({
  files: [],
  references: [{ path: './tsconfig.app.json' }, { path: './tsconfig.node.json' }],
});

const viteConfig = `import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { taskwireReference } from 'taskwire/vite';

export default defineConfig({
  logLevel: 'warn',
  plugins: [react(), taskwireReference({ prefix: '/taskwire', config: { timeScale: 1 } })],
});
`;

const indexHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <link rel="icon" href="data:," />
    <title>taskwire consumer</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`;

// The app's own task map, written with classic zod (what most apps use), registered once for the
// hooks through module augmentation and given to the client for runtime validation.
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

const taskClientTs = `import { createTaskClient } from 'taskwire/client';
import { tasks } from './tasks';

/** The app's client of the reference service that \`taskwire/vite\` mounts on this origin. */
export const taskClient = createTaskClient({
  baseUrl: \`\${window.location.origin}/taskwire\`,
  userToken: 'demo-user-token',
  clientToken: 'demo-client-token',
  // The signed-in user's id: the provider's journal keeps tasks per user and needs it. Here the
  // page's ?user= stands in for a sign-in, so the consumer test can open two users on one origin.
  scope: new URLSearchParams(window.location.search).get('user') ?? 'demo-user',
  tasks,
});
`;

const translatePanelTsx = `import {
  CreditCostPreview,
  TaskProgress,
  UsageBreakdown,
  useSubmitTask,
  useTaskOptions,
  useTaskResult,
} from 'taskwire';

const params = { text: '${SENTENCE}'.repeat(${SENTENCES}), targetLanguage: '${TARGET_LANGUAGE}' };

/** Prices a translation, submits it, polls it to its end and shows what it cost. */
export function TranslatePanel() {
  const quote = useTaskOptions('translate-text', params);
  const submit = useSubmitTask('translate-text');
  const taskId = submit.data?.id;
  const record = useTaskResult('translate-text', taskId);
  const status = record.data?.status ?? (submit.isIdle ? 'idle' : 'queued');
  const result = record.data?.status === 'COMPLETED' ? record.data.result : null;
  const translated = result && !('reason' in result) ? result : undefined;
  const problem = submit.error ?? record.error;
  return (
    <section aria-labelledby="translate-heading">
      <h2 id="translate-heading">${PAGE.translateRegion}</h2>
      <CreditCostPreview
        label="${PAGE.translateCost}"
        status={quote.status}
        quote={quote.data}
        error={quote.error}
      >
        {({ state }) => (
          <button
            type="button"
            disabled={state !== 'priced' || !submit.isIdle}
            onClick={() => submit.mutate({ params })}
          >
            ${PAGE.translateButton}
          </button>
        )}
      </CreditCostPreview>
      <TaskProgress
        label="${PAGE.translateProgress}"
        status={status}
        percent={record.data?.progress?.percent ?? null}
      />
      {translated && <p role="status">Translated into {translated.targetLanguage}</p>}
      {record.data?.usage && (
        <UsageBreakdown usage={record.data.usage} quote={quote.data} caption="${PAGE.translateUsage}" />
      )}
      {problem && <p role="alert">{problem.message}</p>}
    </section>
  );
}
`;

const renderPanelTsx = `import { useState } from 'react';
import { streamDisplayStatus, TaskProgress, UsageBreakdown, useTaskStream } from 'taskwire';

const params = { frames: ${RENDER_FRAMES}, frameMs: ${RENDER_FRAME_MS} };

/** Streams a video render: progress, custom events, the final result and its usage. */
export function RenderPanel() {
  const [framesSeen, setFramesSeen] = useState(0);
  // Recorded in the provider's journal under this key: after a reload the stream is taken up again
  // from Get Result, never posted a second time.
  const stream = useTaskStream('render-video', {
    resumeKey: '${RENDER_RESUME_KEY}',
    onEvent: (event) => {
      if (event.type === 'event.frame-rendered') setFramesSeen((count) => Math.max(count, event.frame));
    },
  });
  return (
    <section aria-labelledby="render-heading">
      <h2 id="render-heading">${PAGE.renderRegion}</h2>
      <button type="button" disabled={stream.status !== 'idle'} onClick={() => stream.start(params)}>
        ${PAGE.renderButton}
      </button>
      <TaskProgress
        label="${PAGE.renderProgress}"
        status={streamDisplayStatus(stream)}
        percent={stream.progress?.percent ?? null}
        estimatedSecondsLeft={stream.progress?.estimatedSecondsLeft ?? null}
      />
      {stream.result && (
        <p role="status">
          Rendered {stream.result.frames} frames; {framesSeen} frame events
        </p>
      )}
      {stream.usage && <UsageBreakdown usage={stream.usage} caption="${PAGE.renderUsage}" />}
      {stream.error && <p role="alert">{stream.error.message}</p>}
      {stream.failure && <p role="alert">{stream.failure.message}</p>}
    </section>
  );
}
`;

// Submitted, then polled: recorded under a resumeKey, so any tab of the origin (sharing the
// localStorage journal) finds the task with useJournalEntry and watches it with useTaskResult.
const backgroundPanelTsx = `import {
  TaskProgress,
  UsageBreakdown,
  useJournalEntry,
  useSubmitTask,
  useTaskResult,
} from 'taskwire';

const params = { frames: ${BACKGROUND_FRAMES}, frameMs: ${RENDER_FRAME_MS} };

/** Submits a render and polls it, in this tab or in any other that finds it in the journal. */
export function BackgroundPanel() {
  const submit = useSubmitTask('render-video', { resumeKey: '${BACKGROUND_RESUME_KEY}' });
  const entry = useJournalEntry('${BACKGROUND_RESUME_KEY}');
  const record = useTaskResult('render-video', submit.data?.id ?? entry?.id);
  const started = submit.data !== undefined || entry !== undefined;
  return (
    <section aria-labelledby="background-heading">
      <h2 id="background-heading">${PAGE.backgroundRegion}</h2>
      <button type="button" disabled={started} onClick={() => submit.mutate({ params })}>
        ${PAGE.backgroundButton}
      </button>
      <TaskProgress
        label="${PAGE.backgroundProgress}"
        status={record.data?.status ?? (started ? 'queued' : 'idle')}
        percent={record.data?.progress?.percent ?? null}
      />
      {record.data?.usage && (
        <UsageBreakdown usage={record.data.usage} caption="${PAGE.backgroundUsage}" />
      )}
      {(submit.error ?? record.error) && <p role="alert">{(submit.error ?? record.error)?.message}</p>}
    </section>
  );
}
`;

const mainTsx = `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTaskJournal, TaskwireProvider } from 'taskwire';
import { TaskwireDevtools } from 'taskwire/devtools';
import 'taskwire/styles.css';
import { BackgroundPanel } from './background-panel';
import { RenderPanel } from './render-panel';
import { taskClient } from './task-client';
import { TranslatePanel } from './translate-panel';

const queryClient = new QueryClient();
// The tasks this browser starts, kept in localStorage, so a reload does not lose them and every
// tab of the origin sees them (and shares their polling).
const journal = createTaskJournal({ storage: 'local' });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <TaskwireProvider client={taskClient} journal={journal}>
        <main>
          <h1>taskwire consumer</h1>
          <TranslatePanel />
          <RenderPanel />
          <BackgroundPanel />
        </main>
        {/* Renders nothing in this production build, which must hold none of its code. */}
        <TaskwireDevtools />
      </TaskwireProvider>
    </QueryClientProvider>
  </StrictMode>,
);
`;

// Compiled by tsc only (nothing imports it): the typed hooks and client as a user writes them,
// and lines that must not compile. If the published types got loose (a hook falling back to any
// task name or to `any` params), a @ts-expect-error would be unused and tsc would fail.
const typeChecksTsx = `import {
  createTaskClient,
  isStreamEventType,
  TaskwireError,
  type OptionsResult,
  type TaskRecord,
} from 'taskwire/client';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import {
  CreditCostPreview,
  taskOptionsQueryOptions,
  taskResultQueryOptions,
  useExecuteTask,
  useSubmitTask,
  useTaskOptions,
  useTaskResult,
  useTaskStream,
} from 'taskwire';
import { taskClient } from './task-client';
import { tasks } from './tasks';

type Translation = { text: string; targetLanguage: string };
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(_proof?: T): void {}

export function TypedHooks() {
  const quote = useTaskOptions('translate-text', { text: 'hello', targetLanguage: 'fr' });
  expectType<Equal<typeof quote.data, OptionsResult | undefined>>();
  // @ts-expect-error targetLanguage is required
  useTaskOptions('translate-text', { text: 'hello' });
  // @ts-expect-error no task of that name is registered
  useTaskOptions('no-such-task', {});

  const submit = useSubmitTask('translate-text');
  submit.mutate({ params: { text: 'hello', targetLanguage: 'fr' } });
  // @ts-expect-error text is a string
  submit.mutate({ params: { text: 42, targetLanguage: 'fr' } });

  const record = useTaskResult('translate-text', submit.data?.id);
  const result = record.data?.result;
  if (result && !('reason' in result)) {
    expectType<Equal<typeof result, Translation>>();
    // @ts-expect-error the result is typed, not any
    const wrong: number = result.text;
    void wrong;
  }

  const stream = useTaskStream('render-video');
  stream.start({ frames: 10 });
  // @ts-expect-error frames is a number
  stream.start({ frames: 'ten' });
  expectType<Equal<typeof stream.result, { url: string; frames: number } | null | undefined>>();
  const event = stream.events[0];
  if (event?.type === 'event.frame-rendered') expectType<Equal<typeof event.frame, number>>();
  // @ts-expect-error render-video has no such event
  if (event?.type === 'event.no-such-event') void event;

  const execute = useExecuteTask('render-video');
  // @ts-expect-error frameMs is a number
  execute.mutate({ params: { frameMs: '100' } });

  // The query-option factories, for apps that call TanStack Query themselves.
  const polled = useQuery(taskResultQueryOptions(taskClient, 'translate-text', 'some-id'));
  expectType<Equal<typeof polled.data, TaskRecord<Translation> | undefined>>();
  const priced = useSuspenseQuery(
    taskOptionsQueryOptions(taskClient, 'translate-text', { text: 'hello', targetLanguage: 'fr' }),
  );
  expectType<Equal<typeof priced.data, OptionsResult>>();
  const cached = useQueryClient().getQueryData(
    taskResultQueryOptions(taskClient, 'translate-text', 'some-id').queryKey,
  );
  expectType<Equal<typeof cached, TaskRecord<Translation> | undefined>>();
  // @ts-expect-error targetLanguage is required
  taskOptionsQueryOptions(taskClient, 'translate-text', { text: 'hello' });

  return (
    <>
      <CreditCostPreview status={quote.status} quote={quote.data} />
      {/* @ts-expect-error status is pending, success or error */}
      <CreditCostPreview status="done" />
    </>
  );
}

/** The framework-free client, typed by the same map. */
export async function typedClient(): Promise<string> {
  const client = createTaskClient({
    baseUrl: '/taskwire',
    userToken: () => 'token',
    clientToken: 'client',
    tasks,
  });
  // @ts-expect-error no task of that name is in the map
  await client.submit('no-such-task', {});
  // @ts-expect-error targetLanguage is required
  await client.options('translate-text', { text: 'hello' });
  const executed = await client.execute('translate-text', { text: 'hello', targetLanguage: 'fr' });
  const record: TaskRecord<Translation> = await client.getResult(
    'translate-text',
    executed.id,
  );
  try {
    for await (const streamed of client.stream('render-video', { frames: 2 })) {
      if (isStreamEventType(streamed, 'task.completed'))
        expectType<Equal<typeof streamed.result, { url: string; frames: number } | null>>();
    }
  } catch (error) {
    if (TaskwireError.isInstance(error)) return error.code;
  }
  return record.status;
}
`;

/** Writes the app into `appRoot`; `tarball` is the file name of the packed package beside it. */
export function writeConsumerApp(appRoot, { tarball, versions }) {
  const files = {
    'package.json': packageJson(tarball, versions),
    'tsconfig.json': tsconfig,
    'tsconfig.app.json': tsconfigApp,
    'tsconfig.node.json': tsconfigNode,
    'vite.config.ts': viteConfig,
    'index.html': indexHtml,
    'src/tasks.ts': tasksTs,
    'src/task-client.ts': taskClientTs,
    'src/translate-panel.tsx': translatePanelTsx,
    'src/render-panel.tsx': renderPanelTsx,
    'src/background-panel.tsx': backgroundPanelTsx,
    'src/main.tsx': mainTsx,
    'src/type-checks.tsx': typeChecksTsx,
  };
  return writeAppFiles(appRoot, files);
}

/** The packages the app declares (and so gets in its node_modules), to link from ours. */
export const APP_PACKAGES = [
  '@tanstack/react-query',
  '@tanstack/query-core',
  'react',
  'react-dom',
  'zod',
  '@types/node',
  '@types/react',
  '@types/react-dom',
  '@vitejs/plugin-react',
  'vite',
];
