#!/usr/bin/env node
/* global process, console, document -- a Node script (document only inside page callbacks) */
// The consumer test (`npm run test:consumer`, after `npm run build`): packs the package with
// `npm pack`, installs the tarball into a fresh Vite React app written to a temporary folder, builds
// that app, serves it with `vite preview` (the reference service mounted by `taskwire/vite`), and in
// headless Chromium submits a stream of `render-video`, watches its progress reach completion, and
// sees the cost preview and the usage table.
//
// Offline by design: the tarball is unpacked into the app's node_modules/taskwire as npm would, and
// the peers and build tools (react, react-dom, @tanstack/*, zod, @microsoft/fetch-event-source, vite,
// @vitejs/plugin-react) are symlinks to this repository's node_modules, so no registry is needed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/ensure-chromium.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LINKED_PACKAGES = [
  'react',
  'react-dom',
  'scheduler',
  '@tanstack/react-query',
  '@tanstack/query-core',
  'zod',
  '@microsoft/fetch-event-source',
  'vite',
  '@vitejs/plugin-react',
];
const DEADLINE_MS = 30_000;

const APP_FILES = {
  'package.json': JSON.stringify({ name: 'taskwire-consumer', private: true, type: 'module' }),
  'vite.config.js': `import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { taskwireReference } from 'taskwire/vite';

export default defineConfig({
  logLevel: 'warn',
  plugins: [react(), taskwireReference()],
});
`,
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><link rel="icon" href="data:," /><title>taskwire consumer</title></head>
  <body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`,
  'src/main.tsx': `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createTaskClient,
  streamDisplayStatus,
  CreditCostPreview,
  TaskProgress,
  TaskwireProvider,
  UsageBreakdown,
  useTaskOptions,
  useTaskStream,
} from 'taskwire';
import 'taskwire/styles.css';

const client = createTaskClient({
  baseUrl: window.location.origin + '/taskwire',
  userToken: 'demo-user-token',
  clientToken: 'demo-client-token',
});
// About 2 s, long enough for the test to see the bar between 0 and 100.
const params = { frames: 20, frameMs: 100 };

function App() {
  const options = useTaskOptions('render-video', params);
  const stream = useTaskStream('render-video');
  return (
    <main>
      <CreditCostPreview status={options.status} quote={options.data} error={options.error} />
      <button type="button" onClick={() => stream.start(params)}>Render</button>
      <p data-testid="status">{stream.status}</p>
      <TaskProgress
        label="Render video"
        status={streamDisplayStatus(stream.status)}
        percent={stream.progress?.percent}
        estimatedSecondsLeft={stream.progress?.estimatedSecondsLeft}
      />
      {stream.usage && <UsageBreakdown usage={stream.usage} />}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={new QueryClient()}>
      <TaskwireProvider client={client}>
        <App />
      </TaskwireProvider>
    </QueryClientProvider>
  </StrictMode>,
);
`,
};

function writeApp(appRoot) {
  for (const [path, text] of Object.entries(APP_FILES)) {
    mkdirSync(dirname(join(appRoot, path)), { recursive: true });
    writeFileSync(join(appRoot, path), text);
  }
}

/** Packs the package and unpacks the tarball where `npm install <tarball>` would put it. */
function installTarball(workRoot, appRoot) {
  execFileSync('npm', ['pack', '--silent', '--pack-destination', workRoot], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = readdirSync(workRoot).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack wrote no tarball.');
  const target = join(appRoot, 'node_modules', 'taskwire');
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', join(workRoot, tarball), '-C', target, '--strip-components=1']);
  return tarball;
}

function linkPeers(appRoot) {
  for (const name of LINKED_PACKAGES) {
    const link = join(appRoot, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules', name), link, 'dir');
  }
}

async function main() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('No Chromium found: run node scripts/ensure-chromium.mjs.');
  const workRoot = mkdtempSync(join(tmpdir(), 'taskwire-consumer-'));
  const appRoot = join(workRoot, 'app');
  let server;
  let browser;
  try {
    writeApp(appRoot);
    const tarball = installTarball(workRoot, appRoot);
    linkPeers(appRoot);
    console.log(`installed ${tarball} into a fresh Vite React app in ${appRoot}`);

    const configFile = join(appRoot, 'vite.config.js');
    await build({ root: appRoot, configFile, logLevel: 'warn' });
    console.log('built the app with vite build');
    server = await preview({
      root: appRoot,
      configFile,
      preview: { port: 0, host: '127.0.0.1', strictPort: false },
    });
    const url = server.resolvedUrls?.local[0];
    if (!url) throw new Error('vite preview reported no URL.');
    console.log(`serving it with vite preview at ${url}`);

    browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
    const page = await browser.newPage();
    const pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(url);

    const costPreview = page.locator('[data-state]').first();
    await page.waitForFunction(
      () => {
        const state = document.querySelector('main [data-state]')?.getAttribute('data-state');
        return state === 'free' || state === 'priced';
      },
      undefined,
      { timeout: DEADLINE_MS },
    );
    console.log(
      `cost preview: ${await costPreview.getAttribute('data-state')}, "${(await costPreview.innerText()).replace(/\s+/g, ' ')}"`,
    );

    await page.getByRole('button', { name: 'Render' }).click();
    const progressSeen = new Set();
    const deadline = Date.now() + DEADLINE_MS;
    let status = '';
    while (Date.now() < deadline) {
      status = await page.getByTestId('status').innerText();
      const now = await page.getByRole('progressbar').getAttribute('aria-valuenow');
      if (now !== null) progressSeen.add(now);
      if (['completed', 'failed', 'error', 'stopped'].includes(status)) break;
      await page.waitForTimeout(20);
    }
    if (status !== 'completed')
      throw new Error(`The stream ended as '${status}', not 'completed'.`);
    console.log(`stream completed; progress values seen: ${[...progressSeen].join(', ')}`);
    const between = [...progressSeen].filter((value) => Number(value) > 0 && Number(value) < 100);
    if (between.length === 0)
      throw new Error('The progress bar showed no value between 0 and 100.');

    const table = page.getByRole('table');
    await table.waitFor({ timeout: DEADLINE_MS });
    console.log(`usage table: "${(await table.innerText()).replace(/\s+/g, ' ')}"`);
    if (pageErrors.length > 0) throw new Error(`The page logged errors:\n${pageErrors.join('\n')}`);
    console.log('consumer test passed');
  } finally {
    await browser?.close();
    await server?.close();
    rmSync(workRoot, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
