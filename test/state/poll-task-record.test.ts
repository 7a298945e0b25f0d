import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TaskwireError } from '../../src/client/errors.js';
import type { TaskRecord } from '../../src/protocol/records.js';
import { pollTaskRecord } from '../support/poll-task-record.js';
import { createTaskClient } from '../../src/client/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTaskSchemas,
} from '../../src/reference/index.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const record = (status: 'IN_PROGRESS' | 'COMPLETED', secondsLeft = 8): TaskRecord => ({
  id: 'task-1',
  status,
  result: null,
  progress: { percent: 50, estimatedSecondsLeft: secondsLeft },
  events: [],
});

/** A Get Result stand-in that answers from a script and notes when it was asked. */
function scripted(answers: Array<TaskRecord | TaskwireError>) {
  const askedAt: number[] = [];
  const read = async () => {
    askedAt.push(Date.now());
    const answer = answers.shift() ?? answers.at(-1);
    if (answer instanceof TaskwireError) throw answer;
    if (answer === undefined) throw new Error('the script ran out');
    return answer;
  };
  return { read, askedAt };
}

const unavailable = () => new TaskwireError('http', 'The service answered 503.', { status: 503 });

describe('pollTaskRecord', () => {
  it('polls on the policy’s schedule until the record is final, then never again', async () => {
    const { read, askedAt } = scripted([
      record('IN_PROGRESS', 8),
      record('IN_PROGRESS', 8),
      record('COMPLETED'),
    ]);
    const seen: string[] = [];
    pollTaskRecord(read)('task-1', {
      onRecord: (next) => seen.push(next.status),
      onError: () => seen.push('error'),
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(seen).toEqual(['IN_PROGRESS', 'IN_PROGRESS', 'COMPLETED']);
    // A quarter of 8 s left: 2 s between polls.
    const start = askedAt[0] ?? 0;
    expect(askedAt.map((time) => time - start)).toEqual([0, 2000, 4000]);
  });

  it('reports retryable errors and backs off, then goes on', async () => {
    const { read, askedAt } = scripted([unavailable(), unavailable(), record('COMPLETED')]);
    const seen: string[] = [];
    pollTaskRecord(read, { random: () => 1 })('task-1', {
      onRecord: (next) => seen.push(next.status),
      onError: (error) => seen.push(`error ${error.status}`),
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(seen).toEqual(['error 503', 'error 503', 'COMPLETED']);
    const start = askedAt[0] ?? 0;
    // 1 s × 2^errors, all of it with `random` at 1.
    expect(askedAt.map((time) => time - start)).toEqual([0, 2000, 6000]);
  });

  it('stops after an error that will not heal', async () => {
    const gone = new TaskwireError('http', 'The service answered 410.', { status: 410 });
    const { read, askedAt } = scripted([gone, record('COMPLETED')]);
    const errors: unknown[] = [];
    pollTaskRecord(read)('task-1', { onRecord: () => undefined, onError: (e) => errors.push(e) });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(errors).toEqual([gone]);
    expect(askedAt).toHaveLength(1);
  });

  it('stops when told, and aborts the read in flight', async () => {
    let signal: AbortSignal | undefined;
    const read = (_id: string, options: { signal?: AbortSignal }) => {
      signal = options.signal;
      return new Promise<TaskRecord>(() => undefined);
    };
    const stop = pollTaskRecord(read)('task-1', {
      onRecord: () => undefined,
      onError: () => undefined,
    });
    expect(signal?.aborted).toBe(false);
    stop();
    expect(signal?.aborted).toBe(true);
  });
});

describe('pollTaskRecord with a service asking for a huge delay', () => {
  /** A real client on the reference service, its answers' `Retry-After` replaced by `retryAfter`. */
  async function pollWithRetryAfter(retryAfter: string) {
    const service = createReferenceService({ timeScale: 1 });
    let gets = 0;
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      tasks: demoTaskSchemas,
      fetch: async (request) => {
        if (request.method === 'GET') gets += 1;
        const response = await service.fetch(request);
        const headers = new Headers(response.headers);
        headers.set('retry-after', retryAfter);
        return new Response(response.body, { status: response.status, headers });
      },
    });
    const { id } = await client.submit('render-video', { frames: 100, frameMs: 1000 });
    const seen: string[] = [];
    const stop = pollTaskRecord((taskId, options) =>
      client.getResult('render-video', taskId, options),
    )(id, { onRecord: (record) => seen.push(record.status), onError: () => seen.push('error') });
    await vi.advanceTimersByTimeAsync(3000);
    const within3s = gets;
    // The hint is held to five minutes: the next poll comes then, not never and not at once.
    await vi.advanceTimersByTimeAsync(5 * 60 * 1000);
    stop();
    await service.close();
    return { within3s, within5min: gets, seen };
  }

  it('polls once in 3 s for Retry-After: 3000000 (seconds past what a timer holds), again at 5 min', async () => {
    const { within3s, within5min } = await pollWithRetryAfter('3000000');
    expect(within3s).toBe(1);
    expect(within5min).toBe(2);
  });

  it('polls once in 3 s for a Retry-After date in the year 9999, again at 5 min', async () => {
    const { within3s, within5min } = await pollWithRetryAfter('Fri, 31 Dec 9999 23:59:59 GMT');
    expect(within3s).toBe(1);
    expect(within5min).toBe(2);
  });
});
