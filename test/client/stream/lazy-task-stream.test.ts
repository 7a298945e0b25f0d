import { describe, expect, it } from 'vitest';
import { TaskwireError } from '../../../src/client/index.js';
import { LazyTaskStream } from '../../../src/client/stream/lazy-task-stream.js';
import { loadStreamPath, onFirstUse } from '../../../src/client/load-on-first-use.js';
import type { TaskEventStreamSetup } from '../../../src/client/stream/task-event-stream.js';
import { createReferenceService } from '../../../src/reference/index.js';

/** A stream setup over the in-process reference service that counts the requests it sends. */
function echoSetup() {
  const service = createReferenceService();
  const sent: Request[] = [];
  const setup: TaskEventStreamSetup = {
    open(signal) {
      const request = new Request('http://service.test/workflows/echo/stream', {
        method: 'POST',
        headers: {
          authorization: 'Bearer demo-user-token',
          'x-app-authorization': 'Bearer demo-client-token',
          'content-type': 'application/json',
          accept: 'text/event-stream',
        },
        body: JSON.stringify({ params: { message: 'hi' } }),
        signal,
      });
      sent.push(request);
      return service.fetch(request);
    },
    maxEventBytes: undefined,
    idleTimeoutMs: 45_000,
    resultSchema: undefined,
    eventSchema: undefined,
    signal: undefined,
    onOpen: undefined,
  };
  return { service, sent, setup };
}

describe('LazyTaskStream', () => {
  it('loads the stream path on the first next() and then streams the task to its end', async () => {
    const { service, sent, setup } = echoSetup();
    const stream = new LazyTaskStream<{ type: string }>(setup);
    expect(sent).toHaveLength(0);
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['task.completed']);
    expect(sent).toHaveLength(1);
    expect(stream.taskId).toMatch(/.+/);
    await service.close();
  });

  it('rejects with network and sends nothing when the code cannot be loaded, then is done', async () => {
    const { service, sent, setup } = echoSetup();
    const cause = new TypeError('Failed to fetch dynamically imported module');
    const stream = new LazyTaskStream(
      setup,
      onFirstUse(() => Promise.reject(cause)),
    );
    const error: unknown = await stream.next().catch((reason: unknown) => reason);
    expect(TaskwireError.isInstance(error) && error.code).toBe('network');
    expect((error as TaskwireError).retryable).toBe(true);
    expect((error as TaskwireError).cause).toBe(cause);
    await expect(stream.next()).resolves.toEqual({ value: undefined, done: true });
    expect(sent).toHaveLength(0);
    await service.close();
  });

  it('sends nothing when return() comes while the code is loading', async () => {
    const { service, sent, setup } = echoSetup();
    let finishLoading: () => void = () => {};
    const loaded = new Promise<void>((resolve) => (finishLoading = resolve));
    const stream = new LazyTaskStream(setup, () => loaded.then(loadStreamPath));
    const first = stream.next();
    await stream.return();
    finishLoading();
    await expect(first).resolves.toEqual({ value: undefined, done: true });
    expect(sent).toHaveLength(0);
    await service.close();
  });

  it('loads a module once, and tries again after a failed load', async () => {
    let loads = 0;
    const load = onFirstUse(async () => {
      loads += 1;
      if (loads === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { loads };
    });
    await expect(load()).rejects.toMatchObject({ code: 'network', retryable: true });
    const [first, second] = await Promise.all([load(), load()]);
    expect(first).toBe(second);
    expect(loads).toBe(2);
  });
});
