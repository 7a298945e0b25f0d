// The app the Vue consumer test writes into a temporary folder: a fresh Vite + Vue 3 app (single
// file components with @vitejs/plugin-vue, TypeScript), with @tanstack/vue-query and taskwire used
// through its public entries only (`taskwire/vue`, `taskwire/client`, `taskwire/vite`). It installs
// no React: taskwire's React peers are optional. The app declares its own task schemas with zod.
import {
  appPackageJson,
  tsconfigJson,
  VITE_APP_OPTIONS,
  VITE_NODE_OPTIONS,
  writeAppFiles,
} from '../consumer/app-files.mjs';

/** The text the app prices: 270 characters, so 3 started blocks of 100. */
export const TRANSLATE_TEXT = 'The quick brown fox jumps over the lazy dog. '.repeat(6);
/** The language the app prices a translation into. */
export const TARGET_LANGUAGE = 'fr';
/** Frames of the streamed render: 20 frames of 100 ms, about 2 s. */
export const RENDER_FRAMES = 20;

/** The names of the page's parts, which the browser check finds by role and name. */
export const PAGE = {
  cost: 'Translation cost',
  renderButton: 'Render',
  renderProgress: 'Render video',
  renderStatus: 'Render status',
  renderResult: 'Rendered video',
};

/** The packages the app declares (and so gets in its node_modules), to link from ours. */
export const VUE_APP_PACKAGES = [
  '@tanstack/vue-query',
  '@tanstack/query-core',
  'vue',
  'zod',
  '@types/node',
  '@vitejs/plugin-vue',
  'vite',
];

const packageJson = (tarball, versions) =>
  appPackageJson({
    name: 'taskwire-vue-consumer',
    scripts: { build: 'vite build', preview: 'vite preview' },
    tarball,
    dependencies: ['@tanstack/vue-query', '@tanstack/query-core', 'vue', 'zod'],
    devDependencies: ['@types/node', '@vitejs/plugin-vue', 'typescript', 'vite'],
    versions,
  });

// As Vite's vue-ts template splits them: the app's TypeScript and the config's, with the options the
// React app's config shares and nothing of its own. `.vue` files are vue-tsc's, which the test does
// not install; what the page does with taskwire is in .ts files.
const tsconfigApp = tsconfigJson(VITE_APP_OPTIONS, ['src/**/*.ts']);

const tsconfigNode = tsconfigJson(VITE_NODE_OPTIONS, ['vite.config.ts']);

const viteConfig = `import vue from '@vitejs/plugin-vue';
import { taskwireReference } from 'taskwire/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  logLevel: 'warn',
  plugins: [vue(), taskwireReference({ prefix: '/taskwire', config: { timeScale: 1 } })],
});
`;

const indexHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <link rel="icon" href="data:," />
    <title>taskwire vue consumer</title>
  </head>
  <body>
    <div id="app"></div>
    <script type="module" src="/src/main.ts"></script>
  </body>
</html>
`;

const envDts = `declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent;
  export default component;
}
`;

// The app's own task map, registered once for the composables through module augmentation.
const tasksTs = `import { z } from 'zod';
import type { TaskSchemas } from 'taskwire/client';

/** The tasks this app runs, with the shapes of their params, results and custom events. */
export const tasks = {
  'translate-text': {
    params: z.object({ text: z.string().min(1), targetLanguage: z.string() }),
    result: z.object({ text: z.string(), targetLanguage: z.string() }),
  },
  'render-video': {
    params: z.object({ frames: z.int().min(1).optional(), frameMs: z.int().min(1).optional() }),
    result: z.object({ url: z.string(), frames: z.number() }),
  },
} satisfies TaskSchemas;

declare module 'taskwire/vue' {
  interface Register {
    tasks: typeof tasks;
  }
}
`;

const mainTs = `import { VueQueryPlugin } from '@tanstack/vue-query';
import { createTaskClient, createTaskJournal, TaskwirePlugin } from 'taskwire/vue';
import { createApp } from 'vue';
import App from './App.vue';
import { tasks } from './tasks';

const client = createTaskClient({
  baseUrl: \`\${window.location.origin}/taskwire\`,
  userToken: 'demo-user-token',
  clientToken: 'demo-client-token',
  scope: 'demo-user',
  tasks,
});

createApp(App)
  .use(VueQueryPlugin)
  .use(TaskwirePlugin, { client, journal: createTaskJournal() })
  .mount('#app');
`;

// What the page does with taskwire, in TypeScript the test type-checks: a price, and a stream.
const renderPageTs = `import { useTaskOptions, useTaskStream } from 'taskwire/vue';
import { computed, ref } from 'vue';

/** The page's state: the translation's price as the text changes, and a streamed render. */
export function useRenderPage() {
  const text = ref(${JSON.stringify(TRANSLATE_TEXT)});
  const { data: quote, isQuoteStale } = useTaskOptions('translate-text', () => ({
    text: text.value,
    targetLanguage: ${JSON.stringify(TARGET_LANGUAGE)},
  }));
  const cost = computed(() =>
    quote.value?.credits === undefined || isQuoteStale.value ? 'Pricing…' : \`\${quote.value.credits} credits\`,
  );
  const render = useTaskStream('render-video', { resumeKey: 'render' });
  const percent = computed(() => Math.round(render.progress.value?.percent ?? 0));
  const url = computed(() => render.result.value?.url ?? '');
  const startRender = () => render.start({ frames: ${RENDER_FRAMES}, frameMs: 100 });
  return { text, cost, status: render.status, percent, url, startRender };
}
`;

const appVue = `<script setup lang="ts">
import { useRenderPage } from './render-page';

const { text, cost, status, percent, url, startRender } = useRenderPage();
</script>

<template>
  <main>
    <section aria-labelledby="translate-title">
      <h2 id="translate-title">Translate</h2>
      <label>Text <textarea v-model="text" rows="4" cols="60"></textarea></label>
      <p role="status" aria-label="${PAGE.cost}">{{ cost }}</p>
    </section>
    <section aria-labelledby="render-title">
      <h2 id="render-title">Render a video</h2>
      <button type="button" :disabled="status === 'connecting' || status === 'streaming'" @click="startRender">
        ${PAGE.renderButton}
      </button>
      <progress aria-label="${PAGE.renderProgress}" max="100" :value="percent">{{ percent }}%</progress>
      <p role="status" aria-label="${PAGE.renderStatus}">{{ status }}</p>
      <output aria-label="${PAGE.renderResult}">{{ url }}</output>
    </section>
  </main>
</template>
`;

/** Writes the app into `appRoot`; `versions` are the ranges of the packages it declares. */
export function writeVueApp(appRoot, { tarball, versions }) {
  const files = {
    'package.json': packageJson(tarball, versions),
    'tsconfig.app.json': tsconfigApp,
    'tsconfig.node.json': tsconfigNode,
    'vite.config.ts': viteConfig,
    'index.html': indexHtml,
    'src/env.d.ts': envDts,
    'src/tasks.ts': tasksTs,
    'src/main.ts': mainTs,
    'src/render-page.ts': renderPageTs,
    'src/App.vue': appVue,
  };
  return writeAppFiles(appRoot, files);
}
