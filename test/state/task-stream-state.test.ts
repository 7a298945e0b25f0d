import { describe, expect, it } from 'vitest';
import { TaskwireError } from '../../src/client/errors.js';
import {
  initialTaskStreamState,
  reduceTaskStream,
  type TaskStreamAction,
  type TaskStreamState,
} from '../../src/state/task-stream-state.js';

type Event = { type: `event.${string}`; eventId?: string; n?: number };
const reduce = (actions: TaskStreamAction<Record<string, unknown>, Event>[], maxEvents = 3) =>
  actions.reduce<TaskStreamState<Record<string, unknown>, Event>>(
    (state, action) => reduceTaskStream(state, action, maxEvents),
    initialTaskStreamState(),
  );
const progress = (percent: number, estimatedSecondsLeft = 5) =>
  ({ type: 'event', event: { type: 'task.progress', percent, estimatedSecondsLeft } }) as const;

describe('reduceTaskStream', () => {
  it('moves from connecting to streaming with the task id', () => {
    const state = reduce([{ type: 'start' }, { type: 'open', taskId: 't1' }]);
    expect(state.status).toBe('streaming');
    expect(state.taskId).toBe('t1');
  });

  it('keeps progress monotonic and within 0–100', () => {
    expect(reduce([{ type: 'start' }, progress(40), progress(30, 2)]).progress).toEqual({
      percent: 40,
      estimatedSecondsLeft: 2,
    });
    expect(reduce([{ type: 'start' }, progress(140)]).progress?.percent).toBe(100);
    expect(reduce([{ type: 'start' }, progress(-5, -1)]).progress).toEqual({
      percent: 0,
      estimatedSecondsLeft: 0,
    });
    expect(reduce([{ type: 'start' }, progress(Number.NaN)]).progress?.percent).toBe(0);
  });

  it('keeps the latest partial result', () => {
    const state = reduce([
      { type: 'start' },
      { type: 'event', event: { type: 'task.partial-result', result: { frame: 1 } } },
      { type: 'event', event: { type: 'task.partial-result', result: { frame: 2 } } },
    ]);
    expect(state.partialResult).toEqual({ frame: 2 });
  });

  it('keeps at most maxEvents custom events, the most recent', () => {
    const events = [1, 2, 3, 4, 5].map(
      (n) => ({ type: 'event', event: { type: 'event.tick', n } }) as const,
    );
    const state = reduce([{ type: 'start' }, ...events]);
    expect(state.events.map((event) => event.n)).toEqual([3, 4, 5]);
    expect(reduce([{ type: 'start' }, ...events], 0).events).toEqual([]);
  });

  it('ends completed with result and usage, and ignores unknown task events', () => {
    const usage = {
      credits: 2,
      details: [{ toolId: 'a', price: 2, amount: 1, credits: 2, failed: false }],
    };
    const state = reduce([
      { type: 'start' },
      { type: 'event', event: { type: 'task.shiny-new' } as never },
      { type: 'event', event: { type: 'task.completed', result: { ok: true }, usage } },
    ]);
    expect(state).toMatchObject({
      status: 'completed',
      result: { ok: true },
      usage,
      progress: { percent: 100 },
    });
  });

  it('ends failed with the failure', () => {
    const failure = {
      status: 'error',
      statusCode: 500,
      reason: 'BOOM',
      message: 'It broke.',
    } as const;
    const state = reduce([
      { type: 'start' },
      { type: 'event', event: { type: 'task.failed', result: failure } },
    ]);
    expect(state.status).toBe('failed');
    expect(state.failure).toEqual(failure);
  });

  it('applies a terminal record read while recovering', () => {
    const state = reduce([
      { type: 'start' },
      { type: 'open', taskId: 't1' },
      progress(50),
      { type: 'recover' },
      {
        type: 'record',
        record: {
          id: 't1',
          status: 'COMPLETED',
          result: { done: 1 },
          progress: { percent: 100, estimatedSecondsLeft: 0 },
          events: [],
        },
      },
    ]);
    expect(state).toMatchObject({ status: 'completed', result: { done: 1 }, taskId: 't1' });
  });

  it('stops unless already settled, and records errors', () => {
    expect(reduce([{ type: 'start' }, { type: 'stop' }]).status).toBe('stopped');
    const error = new TaskwireError('network', 'gone');
    const errored = reduce([{ type: 'start' }, { type: 'error', error }, { type: 'stop' }]);
    expect(errored.status).toBe('error');
    expect(errored.error).toBe(error);
  });
});
