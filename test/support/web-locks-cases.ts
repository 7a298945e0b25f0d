/**
 * Cases of the Web Locks API, run against the in-memory stand-in (node, jsdom) and against
 * Chromium's own `navigator.locks` (test/browser/web-locks.test.tsx), so the stand-in is held to the
 * platform's behaviour.
 */
import { expect, it } from 'vitest';

/** Two lock managers over one lock space, as two tabs of one origin. */
export interface LockSpace {
  a: LockManager;
  b: LockManager;
  /** Where the environment can close a tab (the stand-in; pass `canCloseTab`): tab `'a'` goes away. */
  closeTab?: (clientId: 'a') => void;
}

let unique = 0;
/** A lock name no other case (or earlier run in the same browser) uses. */
const fresh = (label: string) => `web-locks-case:${label}:${Date.now()}:${unique++}`;

/** A promise with its resolve function, to hold a lock until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Registers the cases; `space` makes a fresh pair of tabs per case. */
export function webLocksCases(space: () => LockSpace, { canCloseTab = false } = {}): void {
  it('grants a free lock, holds it until the callback settles, and answers its value', async () => {
    const { a, b } = space();
    const name = fresh('hold');
    const held = gate();
    const first = a.request(name, async (lock) => {
      expect(lock?.name).toBe(name);
      expect(lock?.mode).toBe('exclusive');
      await held.opened;
      return 'first';
    });
    const second = await b.request(name, { ifAvailable: true }, (lock) => lock);
    expect(second).toBeNull();
    held.open();
    await expect(first).resolves.toBe('first');
    await expect(b.request(name, { ifAvailable: true }, (lock) => lock?.name)).resolves.toBe(name);
  });

  it('queues a waiting request in order and grants it when the holder lets go', async () => {
    const { a, b } = space();
    const name = fresh('queue');
    const held = gate();
    const order: string[] = [];
    const first = a.request(name, async () => {
      order.push('a');
      await held.opened;
    });
    const second = b.request(name, () => void order.push('b'));
    const third = a.request(name, () => void order.push('a again'));
    await Promise.resolve();
    held.open();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['a', 'b', 'a again']);
  });

  it('rejects the request promise with what the callback threw, and frees the lock', async () => {
    const { a, b } = space();
    const name = fresh('throws');
    const failure = new Error('in the callback');
    await expect(
      a.request(name, () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    await expect(b.request(name, { ifAvailable: true }, (lock) => lock !== null)).resolves.toBe(
      true,
    );
  });

  it('shares a shared lock, and keeps an exclusive request waiting behind it', async () => {
    const { a, b } = space();
    const name = fresh('shared');
    const held = gate();
    const readers = [
      a.request(name, { mode: 'shared' }, () => held.opened),
      b.request(name, { mode: 'shared' }, () => held.opened),
    ];
    await expect(b.request(name, { ifAvailable: true }, (lock) => lock)).resolves.toBeNull();
    await expect(
      a.request(name, { mode: 'shared', ifAvailable: true }, (lock) => lock?.mode),
    ).resolves.toBe('shared');
    held.open();
    await Promise.all(readers);
  });

  it('drops a waiting request whose signal aborts, rejecting with the reason', async () => {
    const { a, b } = space();
    const name = fresh('abort');
    const held = gate();
    const holder = a.request(name, () => held.opened);
    const controller = new AbortController();
    let ran = false;
    const waiting = b.request(name, { signal: controller.signal }, () => void (ran = true));
    const reason = new Error('gave up');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    held.open();
    await holder;
    expect(ran).toBe(false);
  });

  it('refuses an already-aborted signal and the option pairs the API forbids', async () => {
    const { a } = space();
    const aborted = AbortSignal.abort(new Error('before'));
    await expect(a.request(fresh('x'), { signal: aborted }, () => 1)).rejects.toThrow('before');
    for (const options of [
      { ifAvailable: true, steal: true },
      { steal: true, mode: 'shared' as const },
      { ifAvailable: true, signal: new AbortController().signal },
    ]) {
      await expect(a.request(fresh('x'), options, () => 1)).rejects.toMatchObject({
        name: 'NotSupportedError',
      });
    }
    await expect(a.request('-reserved', () => 1)).rejects.toMatchObject({
      name: 'NotSupportedError',
    });
  });

  it('lets a steal take a held lock, and the holder learns it with an AbortError', async () => {
    const { a, b } = space();
    const name = fresh('steal');
    const held = gate();
    const holder = a.request(name, () => held.opened);
    // Handled from the start: the holder's promise rejects while the steal is still being awaited,
    // and a rejection left without a handler until then is reported as unhandled by the browser.
    const holderLearns = expect(holder).rejects.toMatchObject({ name: 'AbortError' });
    await Promise.resolve();
    await expect(b.request(name, { steal: true }, (lock) => lock?.name)).resolves.toBe(name);
    await holderLearns;
    held.open();
  });

  it('lists held and waiting locks in query()', async () => {
    const { a, b } = space();
    const name = fresh('query');
    const held = gate();
    const granted = gate();
    const holder = a.request(name, () => {
      granted.open();
      return held.opened;
    });
    await granted.opened;
    const waiting = b.request(name, () => undefined);
    const snapshot = await a.query();
    expect(snapshot.held?.filter((lock) => lock.name === name)).toHaveLength(1);
    expect(snapshot.pending?.filter((lock) => lock.name === name)).toHaveLength(1);
    held.open();
    await Promise.all([holder, waiting]);
  });

  if (!canCloseTab) return;
  it('releases the locks of a tab that goes away', async () => {
    const lockSpace = space();
    const { a, b } = lockSpace;
    const name = fresh('close');
    void a.request(name, () => new Promise(() => undefined));
    await Promise.resolve();
    await expect(b.request(name, { ifAvailable: true }, (lock) => lock)).resolves.toBeNull();
    lockSpace.closeTab!('a');
    await expect(b.request(name, { ifAvailable: true }, (lock) => lock?.name)).resolves.toBe(name);
  });
}
