import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import type { TaskwireError } from '../../src/client/errors.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
} from '../../src/reference/index.js';
import { submitAndWatchRun } from '../../src/state/submit-and-watch-run.js';
import type { TaskRun, TaskRunSink } from '../../src/state/task-run.js';
import { gatedTask } from '../support/gated-task.js';

let gate: ReturnType<typeof gatedTask>;
let service: ReturnType<typeof createReferenceService>;
beforeEach(() => {
  vi.useFakeTimers();
  gate = gatedTask();
  service = createReferenceService({ tasks: [gate.task] });
});
afterEach(() => {
  gate.open();
  service.close();
  vi.useRealTimers();
});

/**
 * A real client over the in-process service. `loseAnswer` drops the answer of the first Submit
 * after the service has handled it, as a connection cut on the way back would; `hold` keeps every
 * request from the service until it resolves.
 */
function client(fault: { loseAnswer?: boolean; hold?: Promise<void> } = {}) {
  const submits: Array<string | null> = [];
  let lost = false;
  const taskClient = createTaskClient({
    baseUrl: 'http://taskwire.test',
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    fetch: async (request) => {
      await fault.hold;
      submits.push(request.headers.get('idempotency-key'));
      const response = await service.fetch(request);
      if (fault.loseAnswer && !lost) {
        lost = true;
        throw new TypeError('fetch failed');
      }
      return response;
    },
  });
  return { taskClient, submits };
}

type Call = [string, ...unknown[]];

/** A sink that writes down every call in order. */
function recordingSink() {
  const calls: Call[] = [];
  const sink: TaskRunSink<unknown, { type: string }> = {
    open: (taskId, source) => calls.push(['open', taskId, source]),
    event: (event) => calls.push(['event', event.type]),
    record: (record) => calls.push(['record', record.status]),
    recovering: (taskId) => calls.push(['recovering', taskId]),
    readFailed: (error) => calls.push(['readFailed', error.code]),
    fail: (error) => calls.push(['fail', error]),
    handOver: (next) => calls.push(['handOver', next]),
  };
  return { sink, calls };
}

/** The watch the run goes on with: it writes down which task, sink and signal it was given. */
function watchSpy() {
  const started: Array<{ taskId: string; sink: unknown; signal: AbortSignal }> = [];
  const watch = (taskId: string): TaskRun<unknown, { type: string }> => {
    return (sink, signal) => started.push({ taskId, sink, signal });
  };
  return { watch, started };
}

/** Runs the fake clock in small steps until `check` passes. */
async function advanceUntil(check: () => boolean): Promise<void> {
  for (let elapsed = 0; elapsed < 60_000; elapsed += 10) {
    if (check()) return;
    await vi.advanceTimersByTimeAsync(10);
  }
  throw new Error('Not within a minute.');
}

describe('submitAndWatchRun', () => {
  it('submits once, opens from the record, then goes on as the watch with the same sink and signal', async () => {
    const { taskClient, submits } = client();
    const { sink, calls } = recordingSink();
    const { watch, started } = watchSpy();
    const signal = new AbortController().signal;
    submitAndWatchRun({
      submit: (options) => taskClient.submit('gated', { n: 1 }, options),
      watch,
    })(sink, signal);
    await advanceUntil(() => started.length > 0);
    const taskId = started[0]?.taskId;
    expect(calls).toEqual([['open', taskId, 'record']]);
    expect(started).toEqual([{ taskId, sink, signal }]);
    expect(submits).toEqual([expect.any(String)]);
  });

  it('sends a Submit whose answer was lost again under the same idempotency key: one task', async () => {
    const { taskClient, submits } = client({ loseAnswer: true });
    const { sink, calls } = recordingSink();
    const { watch, started } = watchSpy();
    submitAndWatchRun({
      submit: (options) => taskClient.submit('gated', { n: 1 }, options),
      watch,
    })(sink, new AbortController().signal);
    await advanceUntil(() => started.length > 0);
    expect(submits).toHaveLength(2);
    expect(submits[1]).toBe(submits[0]);
    expect(calls).toEqual([['open', started[0]?.taskId, 'record']]);
    const listed = await taskClient.getResult('gated', started[0]?.taskId ?? '');
    expect(listed.status).toBe('IN_PROGRESS');
  });

  it('fails at once on a refusal that will not heal, and sends it once', async () => {
    const { taskClient, submits } = client();
    const { sink, calls } = recordingSink();
    const { watch, started } = watchSpy();
    submitAndWatchRun({
      submit: (options) => taskClient.submit('gated', { n: 'two' }, options),
      watch,
    })(sink, new AbortController().signal);
    await advanceUntil(() => calls.length > 0);
    expect(calls).toEqual([['fail', expect.objectContaining({ code: 'http', status: 422 })]]);
    expect((calls[0]?.[1] as TaskwireError).reason).toBe('INVALID_PARAMS');
    // Longer than every retry delay would have been.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(submits).toHaveLength(1);
    expect(started).toEqual([]);
  });

  it('tells nothing and starts no watch when its signal aborts while Submit is on its way', async () => {
    let release: () => void = () => undefined;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const { taskClient, submits } = client({ hold });
    const { sink, calls } = recordingSink();
    const { watch, started } = watchSpy();
    const abort = new AbortController();
    let settled: (outcome: string) => void = () => undefined;
    const outcome = new Promise<string>((resolve) => (settled = resolve));
    submitAndWatchRun({
      submit: (options) =>
        taskClient.submit('gated', { n: 1 }, options).then(
          (answer) => (settled('answered'), answer),
          (error: TaskwireError) => {
            settled(`failed ${error.code}`);
            throw error;
          },
        ),
      watch,
    })(sink, abort.signal);
    abort.abort();
    release();
    expect(await outcome).toBe('failed aborted');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls).toEqual([]);
    expect(started).toEqual([]);
    expect(submits).toEqual([]);
  });
});
