// The React 18 run of the hook and component tests (`npm run test:react18`, which installs React 18
// first: scripts/test-react18.mjs). It is the `jsdom` project of vite.config.ts restricted to
// test/react and test/components, with every `react` and `react-dom` import sent to react@18.3.1
// and react-dom@18.3.1 in node_modules/.cache/taskwire-react18. This swaps React at run time only:
// type checking stays on @types/react 19, as for the package's own build.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import type { Reporter } from 'vitest/reporters';
import baseConfig from './vite.config.js';

// Kept in step with scripts/test-react18.mjs, which installs React 18 there.
const react18Modules = fileURLToPath(
  new URL('./node_modules/.cache/taskwire-react18/node_modules', import.meta.url),
);
if (!existsSync(`${react18Modules}/react-dom/package.json`)) {
  throw new Error(`React 18 is not installed in ${react18Modules}; run \`npm run test:react18\`.`);
}
const installedReact = (
  JSON.parse(readFileSync(`${react18Modules}/react/package.json`, 'utf8')) as {
    version: string;
  }
).version;

// Testing Library has no exports map, and Vite resolves it to its CommonJS `main`, whose `require`
// calls Node answers from the file's location (the root's react-dom 19). Its ESM build (`module`),
// inlined, has its imports resolved by Vite, through the aliases below.
const testingLibraryDirectory = fileURLToPath(
  new URL('./node_modules/@testing-library/react/', import.meta.url),
);
const testingLibraryModule = (
  JSON.parse(readFileSync(`${testingLibraryDirectory}package.json`, 'utf8')) as { module: string }
).module;

const jsdomProject = baseConfig.test?.projects?.find(
  (project): project is TestProjectInlineConfiguration =>
    typeof project === 'object' && 'test' in project && project.test?.name === 'jsdom',
)?.test;
// The client's jsdom tests (test/client) do not touch React; only hooks and components rerun.
const include = (jsdomProject?.include ?? []).filter(
  (pattern) => pattern.startsWith('test/react/') || pattern.startsWith('test/components/'),
);
if (!jsdomProject || include.length !== 2) {
  throw new Error('vite.config.ts no longer has the jsdom project this run is made from.');
}

// One line at the end of the run with the versions the test files saw (from test/react18-setup.ts).
const reactVersionReporter: Reporter = {
  onTestRunEnd(testModules) {
    const seen = new Set<string>();
    let withVersions = 0;
    for (const testModule of testModules) {
      const versions = testModule.meta().reactVersions;
      if (!versions) continue;
      withVersions += 1;
      seen.add(`react ${versions.react}, react-dom ${versions.reactDom}`);
    }
    const ran = seen.size > 0 ? [...seen].join(' / ') : 'no React version recorded';
    console.log(
      `\nReact 18 run: ${ran} (${withVersions} of ${testModules.length} test files; ` +
        `installed: react ${installedReact} in ${react18Modules}).`,
    );
  },
};

export default defineConfig({
  plugins: baseConfig.plugins,
  resolve: {
    // Absolute paths into the cache, so Node loads React 18 from there and react-dom 18's own
    // `require('react')` finds its sibling react 18, never the root's 19.
    alias: [
      { find: /^react(\/.*)?$/, replacement: `${react18Modules}/react$1` },
      { find: /^react-dom(\/.*)?$/, replacement: `${react18Modules}/react-dom$1` },
      {
        find: /^@testing-library\/react$/,
        replacement: `${testingLibraryDirectory}${testingLibraryModule}`,
      },
    ],
  },
  test: {
    name: 'react18',
    environment: jsdomProject.environment,
    setupFiles: ['test/react18-setup.ts', ...[jsdomProject.setupFiles ?? []].flat()],
    include,
    // Left external, these two would import `react` through Node from their own location (the
    // root's 19); inlined, Vite resolves their imports with the aliases above.
    server: {
      deps: {
        inline: [
          /\/node_modules\/@tanstack\/react-query\//,
          /\/node_modules\/@testing-library\/react\//,
        ],
      },
    },
    reporters: ['default', reactVersionReporter],
  },
});
