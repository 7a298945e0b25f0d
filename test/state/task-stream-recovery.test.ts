import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import { TaskwireError } from '../../src/client/errors.js';
import type { TaskRecord } from '../../src/protocol/records.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTaskSchemas,
} from '../../src/reference/index.js';
import { pollTaskRecord } from '../support/poll-task-record.js';
import { createTaskStreamController } from '../../src/state/task-stream-controller.js';
import { cutStreamBody } from '../support/cut-stream-body.js';
import { manualWatch } from '../support/manual-watch.js';

let service: ReturnType<typeof createReferenceService>;
beforeEach(() => {
  service = createReferenceService({ timeScale: 0.01 });
});
afterEach(() => service.close());

/** A real client over the in-process service, cutting every stream after `chunks` chunks. */
function cuttingClient(chunks: number) {
  const requests: string[] = [];
  const client = createTaskClient({
    baseUrl: 'http://taskwire.test',
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    tasks: demoTaskSchemas,
    fetch: async (request) => {
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      const response = await service.fetch(request);
      return response.headers.get('content-type')?.startsWith('text/event-stream')
        ? cutStreamBody(response, chunks)
        : response;
    },
  });
  return { client, requests };
}

/** Frames that run on a macrotask, so a test can wait for them without a browser. */
const immediateFrames = (flush: () => void) => {
  let pending: ReturnType<typeof setTimeout> | undefined;
  const request = () => (pending ??= setTimeout(() => ((pending = undefined), flush()), 0));
  return {
    schedule: request,
    flushSoon: flush,
    flushNow: flush,
    cancel: () => clearTimeout(pending),
  };
};

/** Resolves once the controller's state passes `check`. */
function until<State>(
  controller: { subscribe(listener: () => void): () => void; getSnapshot(): State },
  check: (state: State) => boolean,
): Promise<State> {
  return new Promise((resolve) => {
    if (check(controller.getSnapshot())) return resolve(controller.getSnapshot());
    const stop = controller.subscribe(() => {
      if (!check(controller.getSnapshot())) return;
      stop();
      resolve(controller.getSnapshot());
    });
  });
}

/**
 * Runs the fake clock in small steps until the controller's state passes `check`: the service, the
 * client's deadlines, the polls and the frames all run on it, so nothing depends on the machine's
 * speed.
 */
async function advanceUntil<State>(
  controller: { getSnapshot(): State },
  check: (state: State) => boolean,
): Promise<State> {
  for (let elapsed = 0; elapsed < 600_000; elapsed += 10) {
    if (check(controller.getSnapshot())) return controller.getSnapshot();
    await vi.advanceTimersByTimeAsync(10);
  }
  throw new Error(`No such state within 10 minutes: ${JSON.stringify(controller.getSnapshot())}`);
}

describe('createTaskStreamController recovery', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads a broken stream’s outcome by polling, without React, with one POST', async () => {
    const { client, requests } = cuttingClient(2);
    const controller = createTaskStreamController({
      openStream: (params: { frames: number; frameMs: number }, options) =>
        client.stream('render-video', params, options),
      watchRecord: pollTaskRecord((id, options) => client.getResult('render-video', id, options), {
        minIntervalMs: 10,
      }),
      createScheduler: immediateFrames,
    });
    const statuses: string[] = [];
    controller.subscribe(() => statuses.push(controller.getSnapshot().status));
    // Frames 30 ms apart (3 s at timeScale 0.01), more than the frame in which a read of the log
    // gathers messages into one write: the cut after two chunks lands mid-stream.
    controller.start({ frames: 10, frameMs: 3_000 });
    const final = await advanceUntil(controller, (state) => state.status === 'completed');

    expect(statuses).toContain('recovering');
    const record = await client.getResult('render-video', final.taskId ?? '');
    expect(final.result).toEqual(record.result);
    expect(final.usage).toEqual(record.usage);
    expect(requests.filter((line) => line.startsWith('POST'))).toHaveLength(1);
    expect(requests.filter((line) => line.startsWith('GET')).length).toBeGreaterThan(1);
  });

  it('stops polling once the record is final', async () => {
    const { client, requests } = cuttingClient(1);
    const controller = createTaskStreamController({
      openStream: (params: { frames: number; frameMs: number }, options) =>
        client.stream('render-video', params, options),
      watchRecord: pollTaskRecord((id, options) => client.getResult('render-video', id, options), {
        minIntervalMs: 10,
        maxIntervalMs: 10,
      }),
      createScheduler: immediateFrames,
    });
    controller.subscribe(() => undefined);
    controller.start({ frames: 2, frameMs: 10 });
    await advanceUntil(controller, (state) => state.status === 'completed');
    const reads = requests.length;
    // The service's Retry-After (1 s) spaces the polls; run the clock past many more of them.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(requests).toHaveLength(reads);
  });
});

/** A stream that opens with a task id, then breaks. */
function breakingStream(taskId: string) {
  return {
    taskId,
    async *[Symbol.asyncIterator]() {
      yield { type: 'task.progress' as const, percent: 10, estimatedSecondsLeft: 5 };
      throw new TaskwireError('network', 'The stream broke before its final event.', { taskId });
    },
  };
}

const record = (status: 'IN_PROGRESS' | 'COMPLETED', result: unknown = null): TaskRecord => ({
  id: 'task-1',
  status,
  result,
  progress: { percent: status === 'COMPLETED' ? 100 : 40, estimatedSecondsLeft: 3 },
  events: [],
});

function recoveringController(recoverForMs?: number) {
  const watch = manualWatch();
  const controller = createTaskStreamController({
    openStream: () => breakingStream('task-1'),
    watchRecord: watch.start,
    createScheduler: immediateFrames,
    ...(recoverForMs === undefined ? {} : { recoverForMs }),
  });
  controller.subscribe(() => undefined);
  controller.start({});
  return { watch, controller };
}

describe('createTaskStreamController while recovering', () => {
  it('keeps recovering through retryable errors and ends with the final record', async () => {
    const { watch, controller } = recoveringController();
    await until(controller, (state) => state.status === 'recovering');
    watch.listener?.onRecord(record('IN_PROGRESS', { frames: 4 }));
    watch.listener?.onError(
      new TaskwireError('http', 'The service answered 503.', { status: 503 }),
    );
    expect(controller.getSnapshot()).toMatchObject({
      status: 'recovering',
      partialResult: { frames: 4 },
    });
    expect(watch.watching).toBe(1);
    watch.listener?.onRecord(record('COMPLETED', { frames: 10 }));
    expect(controller.getSnapshot()).toMatchObject({ status: 'completed', result: { frames: 10 } });
    expect(watch.watching).toBe(0);
  });

  it('ends in error on an error that will not heal, and stops watching', async () => {
    const { watch, controller } = recoveringController();
    await until(controller, (state) => state.status === 'recovering');
    const gone = new TaskwireError('http', 'The service answered 410.', { status: 410 });
    watch.listener?.onError(gone);
    expect(controller.getSnapshot()).toMatchObject({ status: 'error', error: gone });
    expect(watch.watching).toBe(0);
  });

  it('gives up with its latest failure after recoverForMs without a record', async () => {
    vi.useFakeTimers();
    try {
      const { watch, controller } = recoveringController(60_000);
      await vi.advanceTimersByTimeAsync(1);
      expect(controller.getSnapshot().status).toBe('recovering');
      const refused = new TaskwireError('network', 'GET … could not connect.');
      watch.listener?.onError(refused);
      await vi.advanceTimersByTimeAsync(59_000);
      expect(controller.getSnapshot().status).toBe('recovering');
      await vi.advanceTimersByTimeAsync(1_000);
      expect(controller.getSnapshot()).toMatchObject({ status: 'error', error: refused });
      expect(watch.watching).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts recoverForMs from the latest record read, and says so when none fails', async () => {
    vi.useFakeTimers();
    try {
      const { watch, controller } = recoveringController(60_000);
      await vi.advanceTimersByTimeAsync(50_000);
      watch.listener?.onRecord(record('IN_PROGRESS'));
      await vi.advanceTimersByTimeAsync(50_000);
      expect(controller.getSnapshot().status).toBe('recovering');
      await vi.advanceTimersByTimeAsync(10_000);
      expect(controller.getSnapshot().status).toBe('error');
      expect(controller.getSnapshot().error).toMatchObject({ code: 'timeout', taskId: 'task-1' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops watching on stop(), and ignores what the watch says afterwards', async () => {
    const { watch, controller } = recoveringController();
    await until(controller, (state) => state.status === 'recovering');
    controller.stop();
    expect(watch.watching).toBe(0);
    watch.listener?.onRecord(record('COMPLETED', { frames: 10 }));
    expect(controller.getSnapshot().status).toBe('stopped');
  });
});

describe('createTaskStreamController without a task id', () => {
  it('says nothing was sent when the connection could not be made, not that the outcome is unknown', async () => {
    const { client } = cuttingClient(1);
    const refusing = createTaskClient({
      baseUrl: 'http://127.0.0.1:9',
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      fetch: () => {
        const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
          code: 'ECONNREFUSED',
        });
        return Promise.reject(new TypeError('fetch failed', { cause: refused }));
      },
    });
    const controller = createTaskStreamController({
      openStream: (params: { message: string }, options) =>
        refusing.stream('echo', params, options),
      watchRecord: pollTaskRecord((id, options) => client.getResult('echo', id, options)),
      createScheduler: immediateFrames,
    });
    controller.subscribe(() => undefined);
    controller.start({ message: 'hi' });
    const final = await until(controller, (state) => state.status === 'error');
    expect(final.error).toMatchObject({ code: 'network', reason: 'CONNECT_FAILED' });
    expect(final.error?.message).toContain('nothing was sent');
    expect(final.error?.message).not.toContain('outcome is unknown');
  });
});

describe('createTaskStreamController subscriptions', () => {
  /** A stream that never ends, whose abort the test can see. */
  function endlessStream() {
    const opened: AbortSignal[] = [];
    return {
      opened,
      open: (_params: unknown, options: { signal?: AbortSignal }) => ({
        taskId: undefined,
        [Symbol.asyncIterator]() {
          opened.push(options.signal as AbortSignal);
          return { next: () => new Promise<IteratorResult<never>>(() => undefined) };
        },
      }),
    };
  }

  it('keeps running when its last subscriber leaves and another comes at once', async () => {
    const stream = endlessStream();
    const controller = createTaskStreamController({
      openStream: stream.open,
      watchRecord: () => () => undefined,
      createScheduler: immediateFrames,
    });
    const first = controller.subscribe(() => undefined);
    controller.start({});
    await new Promise((resolve) => setTimeout(resolve, 0));
    // What React's StrictMode does with an effect: clean up, then run again in the same task.
    first();
    const second = controller.subscribe(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(stream.opened).toHaveLength(1);
    expect(stream.opened[0]?.aborted).toBe(false);
    expect(controller.getSnapshot().status).toBe('connecting');

    second();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(stream.opened[0]?.aborted).toBe(true);
    expect(controller.getSnapshot().status).toBe('stopped');
  });
});
