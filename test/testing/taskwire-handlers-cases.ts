/**
 * `taskwireHandlers` under Mock Service Worker: the real client, with the global `fetch` and no
 * `fetch` option of its own, against `http://taskwire.test`, answered by the reference service
 * in-process through msw. The tests are written once here and run twice: under msw's Node server
 * (test/testing/taskwire-handlers.test.ts) and under msw's browser worker in Chromium
 * (test/browser/taskwire-handlers-msw.test.tsx), which differ only in how msw starts and in the
 * few tests that exist for one of them alone.
 */
import type { RequestHandler } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import {
  createReferenceService,
  demoTasks,
  type ReferenceService,
} from '../../src/reference/index.js';
import { scriptTask, taskwireHandlers, withFaults, type Fault } from '../../src/testing/index.js';
import { DEMO_TOKENS, JSON_AUTH } from '../support/demo-auth.js';

/** Where the client sends its requests; msw answers them in the test. */
export const BASE = 'http://taskwire.test';

/** What both `setupServer()` and `setupWorker()` return, as far as these tests use it. */
export interface MockNetwork {
  use(...handlers: RequestHandler[]): void;
}

const services: ReferenceService[] = [];

const paced = scriptTask('paced', [
  { progress: [25, 3] },
  { wait: 150 },
  { progress: [50, 2] },
  { wait: 150 },
  { progress: [75, 1] },
  { wait: 150 },
  { complete: { done: true } },
]);

/** Four events written at once, with nothing between them. */
const burst = scriptTask('burst', [
  { progress: [20, 4] },
  { progress: [40, 3] },
  { progress: [60, 2] },
  { progress: [80, 1] },
  { complete: { done: true } },
]);

/** A service behind `network` at `BASE`, with `faults`, and a client that uses the global fetch. */
function serveOver(network: MockNetwork, faults: Fault[] = []) {
  const service = createReferenceService({ tasks: [...demoTasks, paced, burst], timeScale: 1 });
  services.push(service);
  network.use(...taskwireHandlers(withFaults(service, faults), { baseUrl: BASE }));
  const client = createTaskClient({
    baseUrl: BASE,
    ...DEMO_TOKENS,
  });
  return { service, client };
}

/** Starts a service behind the mock network, with `faults`; it is closed after the test. */
export type Serve = (faults?: Fault[]) => ReturnType<typeof serveOver>;

/**
 * Registers the tests of `taskwireHandlers` under the title `name`, against `network`, which the
 * calling file starts, resets after each test and stops; `ownTests` adds, in the same block, the
 * tests that exist for that file's environment alone.
 */
export function describeTaskwireHandlers(
  name: string,
  network: MockNetwork,
  ownTests: (serve: Serve) => void,
): void {
  const serve: Serve = (faults = []) => serveOver(network, faults);

  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
  });

  describe(name, () => {
    it('serves Submit, Get Result, Execute and Options to the global fetch', async () => {
      const { client } = serve();
      const { id } = await client.submit('echo', { message: 'hello' });
      await expect(client.getResult('echo', id)).resolves.toMatchObject({
        id,
        status: 'COMPLETED',
        result: { echo: 'hello' },
      });
      await expect(client.execute('echo', { message: 'again' })).resolves.toMatchObject({
        result: { echo: 'again' },
      });
      await expect(client.options('export-data', { format: 'csv' })).resolves.toMatchObject({
        credits: 1,
      });
    });

    it('passes a stream on event by event, as the service writes it', async () => {
      const { client } = serve();
      const stream = client.stream('paced', {});
      const seen: { type: string; status: string }[] = [];
      for await (const event of stream) {
        // Read while the task is still running: a buffered answer would only arrive at its end.
        const record = await client.getResult('paced', stream.taskId!);
        seen.push({ type: event.type, status: record.status });
      }
      expect(seen).toEqual([
        { type: 'task.progress', status: 'IN_PROGRESS' },
        { type: 'task.progress', status: 'IN_PROGRESS' },
        { type: 'task.progress', status: 'IN_PROGRESS' },
        { type: 'task.completed', status: 'COMPLETED' },
      ]);
    });

    it('breaks a stream after cutAfterEvents events, as a dropped connection does', async () => {
      const { client } = serve([{ endpoint: 'stream', cutAfterEvents: 2 }]);
      const stream = client.stream('paced', {});
      const seen: string[] = [];
      const ended = await (async () => {
        for await (const event of stream) {
          seen.push(event.type === 'task.progress' ? `progress ${event.percent}` : event.type);
        }
        return 'ended';
      })().catch((error: unknown) => error);
      expect(seen).toEqual(['progress 25', 'progress 50']);
      expect(ended).toMatchObject({ name: 'TaskwireError', code: 'network' });
      // The task goes on behind the broken stream; Get Result still reaches it.
      await expect(client.getResult('paced', stream.taskId!)).resolves.toMatchObject({
        id: stream.taskId,
      });
    });

    it.each([1, 2, 3])(
      'lets exactly %i events through with cutAfterEvents, when they come back to back',
      async (limit) => {
        // Written with no wait between them, so the break follows the last event at once: it
        // must not overtake that event on its way through msw.
        const { client } = serve([{ endpoint: 'stream', cutAfterEvents: limit }]);
        const stream = client.stream('burst', {});
        const seen: string[] = [];
        const ended = await (async () => {
          for await (const event of stream) {
            seen.push(event.type === 'task.progress' ? `progress ${event.percent}` : event.type);
          }
          return 'ended';
        })().catch((error: unknown) => error);
        expect(seen).toEqual(['progress 20', 'progress 40', 'progress 60'].slice(0, limit));
        expect(ended).toMatchObject({ name: 'TaskwireError', code: 'network' });
      },
    );

    it('hands the events before a cutAfterEvents break to a reader that comes late', async () => {
      // The race above made sure of: the reader starts only once the task has ended, long after
      // the break was written. In Chromium a service worker's answer that fails throws away the
      // bytes the page has not read yet, so the break must reach the page after its events.
      const { client } = serve([{ endpoint: 'stream', cutAfterEvents: 1 }]);
      const response = await fetch(`${BASE}/workflows/burst/stream`, {
        method: 'POST',
        headers: { ...JSON_AUTH, accept: 'text/event-stream' },
        body: JSON.stringify({ params: {} }),
      });
      const taskId = response.headers.get('x-task-id')!;
      await vi.waitFor(async () => {
        expect(await client.getResult('burst', taskId)).toMatchObject({ status: 'COMPLETED' });
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const ended = await (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return 'ended';
          text += decoder.decode(value, { stream: true });
        }
      })().catch((error: unknown) => error);
      expect(text.match(/^data:.*$/gm)?.map((line) => JSON.parse(line.slice(5)))).toMatchObject([
        { type: 'task.progress', percent: 20 },
      ]);
      // Under msw's Node server the body fails as a broken connection does; through msw's service
      // worker the break comes as the end of the body, after its events.
      const throughWorker =
        typeof navigator !== 'undefined' && navigator.serviceWorker?.controller != null;
      if (throughWorker) expect(ended).toBe('ended');
      else expect(ended).toBeInstanceOf(TypeError);
    });

    it('passes /openapi.json through as the service answers it', async () => {
      const { service } = serve();
      const direct = await service.fetch(new Request(`${BASE}/openapi.json`));
      const through = await fetch(`${BASE}/openapi.json`);
      expect(through.status).toBe(direct.status);
      expect(await through.text()).toBe(await direct.text());
    });

    it("turns a service call that fails as a network error into msw's network error", async () => {
      const { client } = serve([{ endpoint: 'execute', request: 1, lostAnswer: true }]);
      const raw = await fetch(`${BASE}/workflows/echo/execute`, {
        method: 'POST',
        headers: JSON_AUTH,
        body: JSON.stringify({ params: { message: 'lost' } }),
      }).then(
        () => 'answered',
        (error: unknown) => error,
      );
      expect(raw).toBeInstanceOf(TypeError);
      await expect(client.execute('echo', { message: 'kept' })).resolves.toMatchObject({
        result: { echo: 'kept' },
      });
    });

    it('reaches the client as a retryable network error', async () => {
      const { client } = serve([{ endpoint: 'submit', lostAnswer: true }]);
      await expect(client.submit('echo', { message: 'hi' })).rejects.toMatchObject({
        code: 'network',
        retryable: true,
      });
    });

    it("serves a service's base path, given in baseUrl", async () => {
      const service = createReferenceService({ basePath: '/api' });
      services.push(service);
      network.use(...taskwireHandlers(service, { baseUrl: `${BASE}/api/` }));
      const client = createTaskClient({
        baseUrl: `${BASE}/api`,
        ...DEMO_TOKENS,
      });
      await expect(client.execute('echo', { message: 'based' })).resolves.toMatchObject({
        result: { echo: 'based' },
      });
    });

    it('refuses a baseUrl that is not an absolute http(s) URL', () => {
      const service = createReferenceService();
      services.push(service);
      expect(() => taskwireHandlers(service, { baseUrl: '/taskwire' })).toThrow(TypeError);
      // It says what it got and what it wants.
      expect(() => taskwireHandlers(service, { baseUrl: '/taskwire' })).toThrow(
        /absolute http\(s\) URL.*'http:\/\/taskwire\.test'.*not "\/taskwire"/,
      );
      expect(() => taskwireHandlers(service, { baseUrl: 'ftp://taskwire.test' })).toThrow(
        TypeError,
      );
    });

    ownTests(serve);
  });
}
