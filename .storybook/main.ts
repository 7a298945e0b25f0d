import type { StorybookConfig } from '@storybook/react-vite';
import type { Plugin } from 'vite';
import { taskwireReference } from '../src/reference/vite/index.js';
import {
  LIVE_SERVICE_PREFIX,
  liveServiceConfig,
  type LiveServiceMode,
} from '../stories/live/live-service-config.js';

// Stories run as Vitest tests (addon-vitest sets VITEST) with a faster service than people get.
const mode: LiveServiceMode = process.env['VITEST'] ? 'test' : 'demo';

/**
 * Tells the stories which mode the service runs in, so they size their params from the same
 * figures, and whether it is mounted: `taskwireReference` mounts it on a dev server only (`storybook
 * dev`, and the Vitest browser server), so a static build (`storybook build`) knows at build time
 * that it must run the same service in-process, without a request to find out. A plugin rather
 * than `define` in `viteFinal`, because addon-vitest takes only the plugins of `viteFinal`.
 */
function liveServiceMode(): Plugin {
  return {
    name: 'taskwire-live-service-mode',
    config: (_config, { command }) => ({
      define: {
        __TASKWIRE_LIVE_MODE__: JSON.stringify(mode),
        __TASKWIRE_LIVE_SERVICE_MOUNTED__: JSON.stringify(command === 'serve'),
      },
    }),
  };
}

// Written by hand: `storybook init` asks for an unpublished version and runs `playwright install`.
const config: StorybookConfig = {
  // api-reference/ holds the API reference pages, written from the doc comments by
  // scripts/build-api-docs.mjs, which `npm start` and `npm run build-storybook` run first.
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.@(ts|tsx)', '../api-reference/*.mdx'],
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y', '@storybook/addon-vitest'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true },
  // The reference service answers under /taskwire on the dev server (and on the Vitest browser
  // server, which takes these plugins too), so live stories talk real, same-origin HTTP.
  viteFinal: (viteConfig) => ({
    ...viteConfig,
    plugins: [
      ...(viteConfig.plugins ?? []),
      liveServiceMode(),
      taskwireReference({ prefix: LIVE_SERVICE_PREFIX, config: liveServiceConfig(mode) }),
    ],
  }),
};

export default config;
