import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import type { TaskwireError } from '../../src/client/errors.js';
import { createReferenceService } from '../../src/reference/index.js';
import { submitAndWatchRun } from '../../src/state/submit-and-watch-run.js';
import type { TaskRun, TaskRunSink } from '../../src/state/task-run.js';
import { recordRequests } from '../../src/testing/record-requests.js';
import { withFaults, type Fault } from '../../src/testing/with-faults.js';
import { DEMO_TOKENS } from '../support/demo-auth.js';
import { advanceUntil, trackRequests } from '../support/fake-clock.js';
import { gatedTask } from '../support/gated-task.js';

let gate: ReturnType<typeof gatedTask>;
let reference: ReturnType<typeof createReferenceService>;
beforeEach(() => {
  vi.useFakeTimers();
  gate = gatedTask();
  reference = createReferenceService({ tasks: [gate.task] });
});
afterEach(() => {
  gate.open();
  reference.close();
  vi.useRealTimers();
});

/** A real client over the in-process service with `faults` in front of it, and its Submits' keys. */
function client(faults: Fault[] = []) {
  const log = recordRequests(withFaults(reference, faults));
  const service = trackRequests(log);
  const taskClient = createTaskClient({
    baseUrl: 'http://taskwire.test',
    ...DEMO_TOKENS,
    fetch: (request) => service.fetch(request),
  });
  const submits = () =>
    log.requests
      .filter((request) => request.endpoint === 'submit')
      .map((request) => request.idempotencyKey);
  /** Runs the fake clock until `check` passes. */
  const until = (check: () => boolean, what: string) => advanceUntil(check, service, what);
  return { taskClient, submits, until };
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

describe('submitAndWatchRun', () => {
  it('submits once, opens from the record, then goes on as the watch with the same sink and signal', async () => {
    const { taskClient, submits, until } = client();
    const { sink, calls } = recordingSink();
    const { watch, started } = watchSpy();
    const signal = new AbortController().signal;
    submitAndWatchRun({
      submit: (options) => taskClient.submit('gated', { n: 1 }, options),
      watch,
    })(sink, signal);
    await until(() => started.length > 0, 'the watch');
    const taskId = started[0]?.taskId;
    expect(calls).toEqual([['open', taskId, 'record']]);
    expect(started).toEqual([{ taskId, sink, signal }]);
    expect(submits()).toEqual([expect.any(String)]);
  });

  it('sends a Submit whose answer was lost again under the same idempotency key: one task', async () => {
    const { taskClient, submits, until } = client([
      { endpoint: 'submit', request: 1, lostAnswer: true },
    ]);
    const { sink, calls } = recordingSink();
    const { watch, started } = watchSpy();
    submitAndWatchRun({
      submit: (options) => taskClient.submit('gated', { n: 1 }, options),
      watch,
    })(sink, new AbortController().signal);
    await until(() => started.length > 0, 'the watch');
    const [first, again] = submits();
    expect(submits()).toHaveLength(2);
    expect(again).toBe(first);
    expect(calls).toEqual([['open', started[0]?.taskId, 'record']]);
    const listed = await taskClient.getResult('gated', started[0]?.taskId ?? '');
    expect(listed.status).toBe('IN_PROGRESS');
  });

  it('fails at once on a refusal that will not heal, and sends it once', async () => {
    const { taskClient, submits, until } = client();
    const { sink, calls } = recordingSink();
    const { watch, started } = watchSpy();
    submitAndWatchRun({
      submit: (options) => taskClient.submit('gated', { n: 'two' }, options),
      watch,
    })(sink, new AbortController().signal);
    await until(() => calls.length > 0, 'the failure');
    expect(calls).toEqual([['fail', expect.objectContaining({ code: 'http', status: 422 })]]);
    expect((calls[0]?.[1] as TaskwireError).reason).toBe('INVALID_PARAMS');
    // Longer than every retry delay would have been.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(submits()).toHaveLength(1);
    expect(started).toEqual([]);
  });

  it('tells nothing, starts no watch and sends no Submit again when its signal aborts while Submit hangs', async () => {
    const { taskClient, submits, until } = client([{ endpoint: 'submit', hang: true }]);
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
    await until(() => submits().length === 1, 'the Submit');
    abort.abort();
    expect(await outcome).toBe('failed aborted');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls).toEqual([]);
    expect(started).toEqual([]);
    expect(submits()).toHaveLength(1);
  });
});
