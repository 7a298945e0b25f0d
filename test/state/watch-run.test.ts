import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TaskwireError } from '../../src/client/errors.js';
import type { TaskRecord } from '../../src/protocol/records.js';
import type { TaskRunSink } from '../../src/state/task-run.js';
import { watchRun } from '../../src/state/watch-run.js';
import { manualWatch } from '../support/manual-watch.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

type Call = [string, ...unknown[]];

/**
 * A sink that writes down every call in order and, as the controller does, aborts the run's signal
 * at a call that ends it (a final record, a failure).
 */
function recordingSink(abort: AbortController) {
  const calls: Call[] = [];
  const sink: TaskRunSink<unknown, { type: string; eventId?: string }> = {
    open: (taskId, source) => calls.push(['open', taskId, source]),
    event: (event) => calls.push(['event', event.type, (event as { eventId?: string }).eventId]),
    record: (record) => {
      calls.push(['record', record.status]);
      if (record.status === 'COMPLETED' || record.status === 'FAILED') abort.abort();
    },
    recovering: (taskId) => calls.push(['recovering', taskId]),
    readFailed: (error) => calls.push(['readFailed', error.status]),
    fail: (error) => {
      calls.push(['fail', error]);
      abort.abort();
    },
    handOver: (next) => calls.push(['handOver', next]),
  };
  return { sink, calls };
}

const record = (
  status: 'IN_PROGRESS' | 'COMPLETED',
  events: Array<{ type: string; id: string }> = [],
  id = 'task-1',
): TaskRecord => ({
  id,
  status,
  result: null,
  progress: { percent: status === 'COMPLETED' ? 100 : 40, estimatedSecondsLeft: 3 },
  events,
});

function started(after: 'break' | 'submit', recoverForMs = 60_000, cached?: TaskRecord) {
  const watch = manualWatch(cached);
  const abort = new AbortController();
  const { sink, calls } = recordingSink(abort);
  watchRun({ taskId: 'task-1', after, watchRecord: watch.start, recoverForMs })(sink, abort.signal);
  return { watch, abort, calls };
}

describe('watchRun', () => {
  it('after a break, says it is recovering the task, then reports each record until the final one', () => {
    const { watch, calls } = started('break');
    expect(watch.watching).toBe(1);
    watch.listener?.onRecord(record('IN_PROGRESS'));
    watch.listener?.onRecord(record('COMPLETED'));
    expect(calls).toEqual([
      ['recovering', 'task-1'],
      ['record', 'IN_PROGRESS'],
      ['record', 'COMPLETED'],
    ]);
    expect(watch.watching).toBe(0);
  });

  it('after a Submit, tells each custom event its records list once, by reference, before the record', () => {
    const { watch, calls } = started('submit');
    const first = { type: 'event.started', id: 'e1' };
    const second = { type: 'event.done', id: 'e2' };
    watch.listener?.onRecord(record('IN_PROGRESS', [first]));
    watch.listener?.onRecord(record('IN_PROGRESS', [first, second]));
    expect(calls).toEqual([
      ['event', 'event.started', 'e1'],
      ['record', 'IN_PROGRESS'],
      ['event', 'event.done', 'e2'],
      ['record', 'IN_PROGRESS'],
    ]);
  });

  it('ignores the record of another task', () => {
    const { watch, calls } = started('submit');
    watch.listener?.onRecord(record('COMPLETED', [], 'task-2'));
    expect(calls).toEqual([]);
    expect(watch.watching).toBe(1);
  });

  it('reports a failed read that may heal, and fails on one that will not', () => {
    const { watch, calls } = started('break');
    watch.listener?.onError(
      new TaskwireError('http', 'The service answered 503.', { status: 503 }),
    );
    expect(watch.watching).toBe(1);
    const gone = new TaskwireError('http', 'The service answered 410.', { status: 410 });
    watch.listener?.onError(gone);
    expect(calls).toEqual([
      ['recovering', 'task-1'],
      ['readFailed', 503],
      ['fail', gone],
    ]);
    expect(watch.watching).toBe(0);
  });

  it('gives up with its latest failed read after recoverForMs without a record', async () => {
    const { watch, calls } = started('break', 60_000);
    const refused = new TaskwireError('network', 'GET … could not connect.');
    watch.listener?.onError(refused);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(calls.at(-1)).toEqual(['readFailed', undefined]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.at(-1)).toEqual(['fail', refused]);
    expect(watch.watching).toBe(0);
  });

  it('counts recoverForMs from the latest record, and says why when no read failed', async () => {
    const { watch, calls } = started('submit', 60_000);
    await vi.advanceTimersByTimeAsync(50_000);
    watch.listener?.onRecord(record('IN_PROGRESS'));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(calls).toEqual([['record', 'IN_PROGRESS']]);
    await vi.advanceTimersByTimeAsync(1);
    const [name, error] = calls.at(-1) ?? [];
    expect(name).toBe('fail');
    expect(error).toMatchObject({ code: 'timeout', taskId: 'task-1' });
    expect((error as TaskwireError).message).toBe(
      "The task's outcome could not be read for 60000 ms.",
    );
  });

  it('says the stream broke when it gives up after a break', async () => {
    const { calls } = started('break', 1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((calls.at(-1)?.[1] as TaskwireError).message).toBe(
      "The task's outcome could not be read for 1000 ms after its stream broke.",
    );
  });

  it('stops its watch and its deadline when its signal aborts, and reports nothing more', async () => {
    const { watch, abort, calls } = started('break', 1_000);
    abort.abort();
    expect(watch.watching).toBe(0);
    watch.listener?.onRecord(record('COMPLETED'));
    watch.listener?.onError(
      new TaskwireError('http', 'The service answered 410.', { status: 410 }),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toEqual([['recovering', 'task-1']]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops a watch that reported the final record before it returned', () => {
    const { watch, calls } = started('break', 1_000, record('COMPLETED'));
    expect(calls).toEqual([
      ['recovering', 'task-1'],
      ['record', 'COMPLETED'],
    ]);
    expect(watch.watching).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
