import { describe, expect, it } from 'vitest';
import { createSubmitCoalescer } from '../../src/state/submit-coalescer.js';

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
