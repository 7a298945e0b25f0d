import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskwireError } from '../../src/client/errors.js';
import {
  createSubmitCoalescer,
  retriesSubmit,
  SUBMIT_RETRIES,
  submitWithRetries,
} from '../../src/state/submit-coalescer.js';

function counter() {
  let next = 0;
  return () => `key-${++next}`;
}

describe('createSubmitCoalescer', () => {
  it('gives each call a key of its own', async () => {
    const coalescer = createSubmitCoalescer(counter());
    const keys: string[] = [];
    await coalescer.run('echo', { params: { a: 1 } }, async (key) => keys.push(key));
    await coalescer.run('echo', { params: { a: 1 } }, async (key) => keys.push(key));
    expect(keys).toEqual(['key-1', 'key-2']);
  });

  it('reuses the key when the same call object is retried', async () => {
    const coalescer = createSubmitCoalescer(counter());
    const call = { params: { a: 1 } };
    const keys: string[] = [];
    await expect(
      coalescer.run('echo', call, async (key) => {
        keys.push(key);
        throw new Error('network');
      }),
    ).rejects.toThrow('network');
    await coalescer.run('echo', call, async (key) => keys.push(key));
    expect(keys).toEqual(['key-1', 'key-1']);
  });

  it('joins an identical call in flight, whatever the key order', async () => {
    const coalescer = createSubmitCoalescer(counter());
    let sends = 0;
    let release: (value: string) => void = () => {};
    const send = () => {
      sends += 1;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const first = coalescer.run('echo', { params: { a: 1, b: 2 } }, send);
    const second = coalescer.run('echo', { params: { b: 2, a: 1 } }, send);
    const other = coalescer.run('echo', { params: { a: 2 } }, async () => 'other');
    release('task-1');
    expect(await first).toBe('task-1');
    expect(await second).toBe('task-1');
    expect(await other).toBe('other');
    expect(sends).toBe(1);
  });

  it('tells the key each call was sent under, or joined with, and none before it ran', async () => {
    const coalescer = createSubmitCoalescer(counter());
    const first = { params: { a: 1 } };
    const joining = { params: { a: 1 } };
    expect(coalescer.keyOf(first)).toBeUndefined();
    let release: () => void = () => {};
    const sent = coalescer.run(
      'echo',
      first,
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    const joined = coalescer.run('echo', joining, async () => undefined);
    release();
    await Promise.all([sent, joined]);
    expect(coalescer.keyOf(first)).toBe('key-1');
    expect(coalescer.keyOf(joining)).toBe('key-1');
  });

  it('uses the caller’s key and does not join calls with different notifications', async () => {
    const coalescer = createSubmitCoalescer(counter());
    const keys: string[] = [];
    const hold = (key: string) => {
      keys.push(key);
      return new Promise<void>((resolve) => setTimeout(resolve, 1));
    };
    await Promise.all([
      coalescer.run('echo', { params: {}, idempotencyKey: 'mine' }, hold),
      coalescer.run('echo', { params: {}, notification: { enabled: true } }, hold),
    ]);
    expect(keys).toEqual(['mine', 'key-1']);
  });
});

describe('submitWithRetries', () => {
  afterEach(() => vi.useRealTimers());
  const lost = () => new TaskwireError('network', 'The connection broke.', { retryable: true });

  it('sends again with the same key after a retryable failure, waiting 1 s, then 2 s', async () => {
    vi.useFakeTimers();
    const keys: string[] = [];
    const sent = submitWithRetries(
      async (key) => {
        keys.push(key);
        if (keys.length < 3) throw lost();
        return { id: 't1' };
      },
      new AbortController().signal,
      counter(),
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(keys).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(keys).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000);
    await expect(sent).resolves.toBe('t1');
    expect(keys).toEqual(['key-1', 'key-1', 'key-1']);
  });

  it('gives up after three retries, and at once on a failure that will not heal', async () => {
    vi.useFakeTimers();
    let sends = 0;
    const failing = submitWithRetries(async () => {
      sends++;
      throw lost();
    }, new AbortController().signal);
    const settled = failing.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await settled).toBeInstanceOf(TaskwireError);
    expect(sends).toBe(4);

    const refused = new TaskwireError('http', 'Invalid params.', { status: 400 });
    let refusedSends = 0;
    await expect(
      submitWithRetries(async () => {
        refusedSends++;
        throw refused;
      }, new AbortController().signal),
    ).rejects.toBe(refused);
    expect(refusedSends).toBe(1);
  });

  it('stops waiting and sends nothing more once its signal aborts', async () => {
    vi.useFakeTimers();
    const abort = new AbortController();
    let sends = 0;
    const sent = submitWithRetries(async () => {
      sends++;
      throw lost();
    }, abort.signal);
    const settled = sent.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    abort.abort(new Error('stopped'));
    expect(await settled).toEqual(new Error('stopped'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sends).toBe(1);
  });
});

describe('retriesSubmit', () => {
  const lost = new TaskwireError('network', 'The connection broke.', { retryable: true });
  const refused = new TaskwireError('http', 'Invalid params.', { status: 400 });

  it('sends a retryable failure again three times by default, the rule of both drivers', () => {
    expect([1, 2, 3, 4].map((failures) => retriesSubmit(failures, lost))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(SUBMIT_RETRIES).toBe(3);
  });

  it('never sends again a failure that is not retryable, nor one that is no TaskwireError', () => {
    expect(retriesSubmit(1, refused)).toBe(false);
    expect(retriesSubmit(1, new Error('boom'))).toBe(false);
  });

  it("takes useSubmitTask's own count", () => {
    expect(retriesSubmit(1, lost, 0)).toBe(false);
    expect(retriesSubmit(5, lost, 5)).toBe(true);
  });
});
