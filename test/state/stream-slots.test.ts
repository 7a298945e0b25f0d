/**
 * The stream budget's slots: Web Locks across tabs (the in-memory stand-in of test/support, two
 * "tabs" over one lock space), and the page's own count where there are none.
 */
import { describe, expect, it } from 'vitest';
import {
  streamBudgetKey,
  streamSlotName,
  takeStreamSlot,
  type ReleaseStreamSlot,
} from '../../src/state/stream-slots.js';
import { createInMemoryWebLocks } from '../support/in-memory-web-locks.js';

let services = 0;
/** A service key no other test shares, since the page's own count lives as long as the module. */
const freshService = () => `https://service-${services++}.test`;

/** Takes slots until the budget refuses one; returns the releases taken. */
async function takeAll(service: string, max: number, locks?: LockManager) {
  const taken: ReleaseStreamSlot[] = [];
  for (;;) {
    const slot = await takeStreamSlot(service, max, locks);
    if (slot === undefined) return taken;
    taken.push(slot);
  }
}

describe('stream slots with Web Locks', () => {
  it('gives at most max slots across two tabs, and a freed one to the next taker', async () => {
    const space = createInMemoryWebLocks();
    const service = freshService();
    const first = await takeAll(service, 3, space.tab('a'));
    expect(first).toHaveLength(3);
    expect(await takeStreamSlot(service, 3, space.tab('b'))).toBeUndefined();
    expect(space.heldNames().sort()).toEqual([0, 1, 2].map((i) => streamSlotName(service, i)));

    first[1]!();
    await Promise.resolve();
    const taken = await takeStreamSlot(service, 3, space.tab('b'));
    expect(taken).toBeTypeOf('function');
    expect(await takeStreamSlot(service, 3, space.tab('a'))).toBeUndefined();
  });

  it('frees a slot once however often its release is called', async () => {
    const space = createInMemoryWebLocks();
    const service = freshService();
    const [slot] = await takeAll(service, 1, space.locks);
    slot!();
    slot!();
    await Promise.resolve();
    expect(await takeAll(service, 1, space.locks)).toHaveLength(1);
  });

  it('keeps the budgets of two services apart', async () => {
    const space = createInMemoryWebLocks();
    expect(await takeAll(freshService(), 2, space.locks)).toHaveLength(2);
    expect(await takeAll(freshService(), 2, space.locks)).toHaveLength(2);
  });

  it("frees the slots of a tab that goes away, as the browser frees a closed tab's locks", async () => {
    const space = createInMemoryWebLocks();
    const service = freshService();
    expect(await takeAll(service, 2, space.tab('a'))).toHaveLength(2);
    space.closeTab('a');
    expect(await takeAll(service, 2, space.tab('b'))).toHaveLength(2);
  });

  it("falls back to the page's count when the lock API refuses (an opaque origin)", async () => {
    const refusing = {
      request: () => Promise.reject(new DOMException('opaque origin', 'SecurityError')),
      query: () => Promise.reject(new DOMException('opaque origin', 'SecurityError')),
    } as unknown as LockManager;
    const service = freshService();
    const taken = await takeAll(service, 2, refusing);
    expect(taken).toHaveLength(2);
    taken[0]!();
    expect(await takeAll(service, 2, refusing)).toHaveLength(1);
  });
});

describe('stream slots without Web Locks', () => {
  it('counts in the page: at most max, and a freed slot can be taken again', async () => {
    const service = freshService();
    const taken = await takeAll(service, 4, undefined);
    expect(taken).toHaveLength(4);
    taken[2]!();
    taken[2]!();
    expect(await takeAll(service, 4, undefined)).toHaveLength(1);
  });
});

describe('the budget key', () => {
  it('is the origin of the base URL, since the browser limits connections per host', () => {
    expect(streamBudgetKey('https://api.example.test/taskwire')).toBe('https://api.example.test');
    expect(streamBudgetKey('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
  });
});
