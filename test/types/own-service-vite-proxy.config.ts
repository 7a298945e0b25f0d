// vite.config.ts: the proxy in front of your real service on the dev server, under /taskwire.
import react from '@vitejs/plugin-react';
import { createTaskProxy } from 'taskwire/server';
import { taskwireReference } from 'taskwire/vite';
import { defineConfig } from 'vite';

const proxy = createTaskProxy({
  target: process.env.TASKWIRE_URL ?? 'https://tasks.example.com/v1',
  // Read on the dev server, never bundled: not a VITE_ variable, which Vite puts in the page.
  clientToken: () => process.env.TASKWIRE_CLIENT_TOKEN ?? '',
  tasks: ['render-video', 'translate-text'],
  // No basePath: the plugin takes /taskwire off the path before the proxy sees it, and puts it back
  // in front of the Location the proxy answers with.
});

// The proxy in the reference service's place: pages keep `baseUrl: '/taskwire'`.
export default defineConfig({ plugins: [react(), taskwireReference({ service: proxy })] });
