import { afterEach, describe, expect, it } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import type { TaskwireError } from '../../src/client/errors.js';
import { createReferenceService, type ReferenceServiceConfig } from '../../src/reference/index.js';
import { streamRun } from '../../src/state/stream-run.js';
import type { TaskRun, TaskRunSink } from '../../src/state/task-run.js';
import { recordRequests } from '../../src/testing/record-requests.js';
import { withFaults, type Fault } from '../../src/testing/with-faults.js';
import { DEMO_TOKENS } from '../support/demo-auth.js';
import { gatedTask } from '../support/gated-task.js';

const services: Array<{ close(): void }> = [];
afterEach(() => {
  for (const service of services.splice(0)) service.close();
});

/**
 * A real client over an in-process reference service (demo tasks at 1/100 of their time unless
 * `config` says otherwise) with `faults` in front of it, and the log of the requests it sent;
 * `answer` may change an answer on its way, as a proxy would.
 */
function client(
  faults: Fault[] = [],
  config: ReferenceServiceConfig = { timeScale: 0.01 },
  answer = (response: Response) => response,
) {
  const reference = createReferenceService(config);
  services.push(reference);
  const service = recordRequests(withFaults(reference, faults));
  const taskClient = createTaskClient({
    baseUrl: 'http://taskwire.test',
    ...DEMO_TOKENS,
    fetch: async (request) => answer(await service.fetch(request)),
  });
  const endpoints = () => service.requests.map((request) => request.endpoint);
  return { taskClient, endpoints };
}

type Call = [string, ...unknown[]];

/**
 * A sink that writes down every call in order; `ended` resolves at the call that ends a run as the
 * controller sees it (a final event, a failure, a hand-over), `until(name, type)` at a given call.
 */
function recordingSink() {
  const calls: Call[] = [];
  let end: (call: Call) => void = () => undefined;
  const ended = new Promise<Call>((resolve) => (end = resolve));
  const waiting: Array<{ call: Call; resolve: () => void }> = [];
  const note = (call: Call, final = false) => {
    calls.push(call);
    if (final) end(call);
    for (const wait of waiting) {
      if (wait.call.every((part, index) => part === call[index])) wait.resolve();
    }
  };
  const until = (...call: Call) => new Promise<void>((resolve) => waiting.push({ call, resolve }));
  const sink: TaskRunSink<unknown, { type: string }> = {
    open: (taskId, source) => note(['open', taskId, source]),
    event: (event) =>
      note(['event', event.type], event.type === 'task.completed' || event.type === 'task.failed'),
    record: (record) => note(['record', record.status]),
    recovering: (taskId) => note(['recovering', taskId]),
    readFailed: (error) => note(['readFailed', error.code]),
    fail: (error) => note(['fail', error], true),
    handOver: (next) => note(['handOver', next], true),
  };
  return { sink, calls, ended, until };
}

const params = { frames: 3, frameMs: 20 };

describe('streamRun', () => {
  it('opens with the task id and passes every event in order, the final one last', async () => {
    const { taskClient, endpoints } = client();
    const { sink, calls, ended } = recordingSink();
    const run = streamRun({
      open: (options) => taskClient.stream('render-video', params, options),
      afterBreak: () => () => undefined,
    });
    run(sink, new AbortController().signal);
    await ended;
    const [open, ...events] = calls;
    expect(open).toEqual(['open', expect.any(String), undefined]);
    expect(events.at(-1)).toEqual(['event', 'task.completed']);
    expect(events.filter(([, type]) => type === 'event.frame-rendered')).toHaveLength(3);
    expect(events.every(([name]) => name === 'event')).toBe(true);
    expect(endpoints()).toEqual(['stream']);
  });

  it('hands over to afterBreak with the task id when the stream breaks, posting nothing again', async () => {
    const { taskClient, endpoints } = client([{ endpoint: 'stream', cutAfterEvents: 2 }]);
    const { sink, calls, ended } = recordingSink();
    const watched: string[] = [];
    const next: TaskRun<unknown, { type: string }> = () => undefined;
    const run = streamRun({
      open: (options) => taskClient.stream('render-video', params, options),
      afterBreak: (taskId) => {
        watched.push(taskId);
        return next;
      },
    });
    run(sink, new AbortController().signal);
    expect(await ended).toEqual(['handOver', next]);
    const taskId = calls[0]?.[1];
    expect(taskId).toEqual(expect.any(String));
    expect(watched).toEqual([taskId]);
    expect(calls.filter(([name]) => name === 'event')).toHaveLength(2);
    expect(endpoints()).toEqual(['stream']);
  });

  it('fails, saying the outcome is unknown, when a stream without a task id breaks', async () => {
    const withoutTaskId = (response: Response) => {
      const headers = new Headers(response.headers);
      headers.delete('x-task-id');
      return new Response(response.body, { status: response.status, headers });
    };
    const { taskClient } = client(
      [{ endpoint: 'stream', cutAfterEvents: 1 }],
      { timeScale: 0.01 },
      withoutTaskId,
    );
    const { sink, ended } = recordingSink();
    const run = streamRun({
      open: (options) => taskClient.stream('render-video', params, options),
      afterBreak: () => () => undefined,
    });
    run(sink, new AbortController().signal);
    const [name, error] = await ended;
    expect(name).toBe('fail');
    expect(error).toMatchObject({ code: 'network' });
    expect((error as TaskwireError).message).toContain('the outcome is unknown');
  });

  it('fails with the client’s refusal of params that are no object, before any request', async () => {
    const { taskClient, endpoints } = client();
    const { sink, calls, ended } = recordingSink();
    const run = streamRun({
      open: (options) => taskClient.stream('render-video', 'frames' as never, options),
      afterBreak: () => () => undefined,
    });
    run(sink, new AbortController().signal);
    const [name, error] = await ended;
    expect(name).toBe('fail');
    expect(error).toMatchObject({ code: 'protocol', reason: 'INVALID_PARAMS' });
    expect(calls).toHaveLength(1);
    expect(endpoints()).toEqual([]);
  });

  it('tells nothing once its signal has aborted, and stops reading the stream', async () => {
    const { task, open: openGate } = gatedTask();
    const { taskClient } = client([], { tasks: [task] });
    const { sink, calls, until } = recordingSink();
    const abort = new AbortController();
    let finished: (how: string) => void = () => undefined;
    const finish = new Promise<string>((resolve) => (finished = resolve));
    const run = streamRun<unknown, { type: string }>({
      open: (options) => {
        const stream = taskClient.stream('gated', { n: 1 }, options);
        // The stream as the run reads it, saying how its reading ended.
        return {
          taskId: undefined,
          async *[Symbol.asyncIterator]() {
            try {
              for await (const event of stream) yield event;
              finished('done');
            } catch (error) {
              finished(`threw ${(error as TaskwireError).code}`);
              throw error;
            } finally {
              finished('returned');
            }
          },
        };
      },
      afterBreak: () => () => undefined,
    });
    const started = until('event', 'event.started');
    run(sink, abort.signal);
    await started;
    abort.abort();
    expect(await finish).toBe('threw aborted');
    const told = calls.length;
    await Promise.resolve();
    expect(calls).toHaveLength(told);
    expect(calls.some(([name]) => name === 'fail' || name === 'handOver')).toBe(false);
    expect(calls.at(-1)).toEqual(['event', 'event.started']);
    openGate();
  });
});
