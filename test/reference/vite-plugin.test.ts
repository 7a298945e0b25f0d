import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import { createReferenceService, DEMO_CLIENT_TOKEN } from '../../src/reference/index.js';
import { startReferenceServer } from '../../src/reference/node/index.js';
import { taskwireReference } from '../../src/reference/vite/index.js';
import { createTaskProxy } from '../../src/server/index.js';
import { JSON_AUTH as AUTH, DEMO_TOKENS } from '../support/demo-auth.js';

let root = '';
const servers: (ViteDevServer | PreviewServer)[] = [];

beforeEach(async () => {
  // An empty root: nothing for Vite to scan, watch or optimise.
  root = await mkdtemp(join(tmpdir(), 'taskwire-vite-'));
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await rm(root, { recursive: true, force: true });
});

async function startDevServer(plugin: ReturnType<typeof taskwireReference>): Promise<string> {
  const server = await createServer({
    configFile: false,
    root,
    plugins: [plugin],
    logLevel: 'silent',
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { port: 0, host: '127.0.0.1', strictPort: true, watch: null, hmr: false },
  });
  servers.push(server);
  await server.listen();
  return `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}`;
}

/** A real service that counts how often it was closed: the plugin's closing is what is tested. */
function countingService() {
  const service = createReferenceService({ timeScale: 0.01 });
  const counts = { closes: 0 };
  return {
    counts,
    service: {
      fetch: (request: Request) => service.fetch(request),
      close: async () => {
        counts.closes += 1;
        await service.close();
      },
    },
  };
}

describe('taskwireReference', () => {
  it('serves the service under /taskwire on the dev server over real HTTP', async () => {
    const origin = await startDevServer(taskwireReference());

    const response = await fetch(`${origin}/taskwire/workflows/echo/execute`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ params: { message: 'through vite' } }),
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'success',
      response: { status: 'COMPLETED', result: { echo: 'through vite' } },
    });
  });

  it('answers every path under the prefix itself, before the SPA fallback of Vite', async () => {
    const origin = await startDevServer(taskwireReference());

    const unknown = await fetch(`${origin}/taskwire/not-an-endpoint`, { headers: AUTH });
    const outside = await fetch(`${origin}/taskwirex/workflows/echo/execute`, {
      method: 'POST',
      headers: AUTH,
      body: '{"params":{"message":"x"}}',
    });
    await outside.body?.cancel();

    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ reason: 'NOT_FOUND' });
    // Not under the prefix: Vite's to answer, whatever it answers, never the service's JSON.
    expect(outside.headers.get('content-type') ?? '').not.toContain('application/json');
  });

  it('puts the prefix in front of the Location of a submit, so following it reaches the service', async () => {
    const origin = await startDevServer(taskwireReference({ prefix: 'api/taskwire/' }));

    const submitted = await fetch(`${origin}/api/taskwire/workflows/echo/submit`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ params: { message: 'hello' } }),
    });
    const { response } = (await submitted.json()) as { response: { id: string } };
    const location = submitted.headers.get('location');
    const result = await fetch(`${origin}${location}`, { headers: AUTH });

    expect(submitted.status).toBe(202);
    expect(location).toBe(`/api/taskwire/workflows/echo/${response.id}/result`);
    expect(result.status).toBe(200);
    expect(((await result.json()) as { response: { id: string } }).response.id).toBe(response.id);
  });

  it('streams server-sent events through the dev server', async () => {
    const origin = await startDevServer(taskwireReference({ config: { timeScale: 0.01 } }));

    const response = await fetch(`${origin}/taskwire/workflows/render-video/stream`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ params: { frames: 3, frameMs: 100 } }),
    });
    const text = await response.text();

    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-task-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(text.trimEnd().split('\n').at(-1)).toMatch(/^data: \{"type":"task\.completed"/);
  });

  it('closes the service when the dev server closes, and keeps it across a restart', async () => {
    const { service, counts } = countingService();
    const plugin = taskwireReference({ service });
    const origin = await startDevServer(plugin);
    const server = servers[0] as ViteDevServer;

    await server.restart();
    const afterRestart = await fetch(
      `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}/taskwire/workflows/echo/execute`,
      { method: 'POST', headers: AUTH, body: '{"params":{"message":"still here"}}' },
    );
    const closesAfterRestart = counts.closes;
    await server.close();
    servers.splice(0);

    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(afterRestart.status).toBe(200);
    expect(closesAfterRestart).toBe(0);
    expect(counts.closes).toBe(1);
  });

  it('mounts a proxy of taskwire/server in front of a real service, Location and streams included', async () => {
    // The "real" service on a port of its own, as a team's service would be.
    const upstream = await startReferenceServer({
      service: createReferenceService({ timeScale: 0.01, basePath: '/v1' }),
    });
    onTestFinished(() => upstream.close());
    // No basePath: the plugin takes its prefix off the path before the proxy sees it, and puts it
    // back in front of the Location the proxy answers with.
    const proxy = createTaskProxy({
      target: `${upstream.url}/v1`,
      clientToken: DEMO_CLIENT_TOKEN,
      tasks: ['echo', 'render-video'],
    });
    const origin = await startDevServer(taskwireReference({ service: proxy }));
    // The page's client holds the user's token only; the app token is added by the proxy.
    const client = createTaskClient({
      baseUrl: `${origin}/taskwire`,
      userToken: DEMO_TOKENS.userToken,
    });

    const submitted = await fetch(`${origin}/taskwire/workflows/echo/submit`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${DEMO_TOKENS.userToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ params: { message: 'via the proxy' } }),
    });
    const { response } = (await submitted.json()) as { response: { id: string } };
    const types: string[] = [];
    for await (const event of client.stream('render-video', { frames: 2, frameMs: 10 })) {
      types.push(event.type);
    }
    const offTheList = await fetch(`${origin}/taskwire/workflows/slow-report/submit`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${DEMO_TOKENS.userToken}`,
        'content-type': 'application/json',
      },
      body: '{"params":{}}',
    });

    expect(submitted.status).toBe(202);
    expect(submitted.headers.get('location')).toBe(
      `/taskwire/workflows/echo/${response.id}/result`,
    );
    expect(submitted.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await client.getResult('echo', response.id)).toMatchObject({ id: response.id });
    expect(types.at(-1)).toBe('task.completed');
    expect(offTheList.status).toBe(404);
    expect(await offTheList.json()).toMatchObject({ reason: 'TASK_NOT_FOUND' });
  });

  it('serves the service on the preview server and closes it with that server', async () => {
    const { service, counts } = countingService();
    const server = await preview({
      configFile: false,
      root,
      plugins: [taskwireReference({ service })],
      logLevel: 'silent',
      build: { outDir: root },
      preview: { port: 0, host: '127.0.0.1', strictPort: true, open: false },
    });
    const port = (server.httpServer.address() as AddressInfo).port;

    const response = await fetch(`http://127.0.0.1:${port}/taskwire/workflows/echo/execute`, {
      method: 'POST',
      headers: AUTH,
      body: '{"params":{"message":"preview"}}',
    });
    const body = await response.json();
    await server.close();

    expect(body).toMatchObject({ response: { result: { echo: 'preview' } } });
    expect(counts.closes).toBe(1);
  });
});
