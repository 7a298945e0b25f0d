/**
 * The stream budget's slots (docs/protocol.md, "The stream budget"): a browser opens at most six
 * HTTP/1.1 connections per host for all its tabs together, and a stream holds one for as long as it
 * runs, so at most `max` streams to one service may be open at once. Across tabs a slot is a Web Lock
 * (`navigator.locks`), which the browser frees by itself when a tab closes or crashes; where there is
 * no Web Locks API (Node, an old browser) it is a count kept in this module, which covers one page.
 */
import { platformLocks, type WebLocks } from './web-locks.js';

/** Frees a slot taken with {@link takeStreamSlot}; calling it again does nothing. */
export type ReleaseStreamSlot = () => void;

/** Slots held per service where Web Locks are missing: one page's own count. */
const heldInPage = new Map<string, number>();

/** The name of slot `index` of `service`'s budget, shared by every tab of the origin. */
export function streamSlotName(service: string, index: number): string {
  return `taskwire:stream-slot:${service}:${index}`;
}

/**
 * The key of a service's budget: the origin of its base URL, since the browser's limit is per host
 * (two clients of one origin share it). A base URL that cannot be resolved here (a path, in Node)
 * is its own key.
 */
export function streamBudgetKey(baseUrl: string): string {
  try {
    const page = (globalThis as { location?: { href?: string } }).location?.href;
    return new URL(baseUrl, page).origin;
  } catch {
    return baseUrl;
  }
}

/** Wraps `release` so that only its first call counts. */
function once(release: () => void): ReleaseStreamSlot {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}

/** Takes a slot from this page's own count, or `undefined` when `max` are held. */
function takeInPage(service: string, max: number): ReleaseStreamSlot | undefined {
  const held = heldInPage.get(service) ?? 0;
  if (held >= max) return undefined;
  heldInPage.set(service, held + 1);
  return once(() => {
    const left = (heldInPage.get(service) ?? 1) - 1;
    if (left > 0) heldInPage.set(service, left);
    else heldInPage.delete(service);
  });
}

/**
 * Asks for Web Lock `name` without waiting: resolves to its release while it is held, `undefined`
 * when another holder has it, or `'unusable'` when the API refused the request (an opaque origin,
 * a sandboxed frame), so the caller can fall back to the page's own count.
 */
function tryLock(
  locks: WebLocks,
  name: string,
): Promise<ReleaseStreamSlot | undefined | 'unusable'> {
  return new Promise((answer) => {
    let granted = false;
    const held = locks.request(name, { ifAvailable: true }, (lock) => {
      if (lock === null) {
        answer(undefined);
        return undefined;
      }
      granted = true;
      // Held until the stream lets go; the browser releases it too if the tab goes away.
      return new Promise<void>((free) => answer(once(free)));
    });
    held.catch(() => {
      if (!granted) answer('unusable');
    });
  });
}

/**
 * Takes one of the `max` stream slots of `service` if one is free now, never waiting for one:
 * resolves to the function that frees it, or `undefined` when all are held (in this tab or, with Web
 * Locks, in any tab of the origin). `locks` defaults to the page's `navigator.locks`.
 */
export async function takeStreamSlot(
  service: string,
  max: number,
  locks: WebLocks | undefined = platformLocks(),
): Promise<ReleaseStreamSlot | undefined> {
  if (locks === undefined) return takeInPage(service, max);
  for (let index = 0; index < max; index++) {
    const slot = await tryLock(locks, streamSlotName(service, index));
    if (slot === 'unusable') return takeInPage(service, max);
    if (slot !== undefined) return slot;
  }
  return undefined;
}

/**
 * The slots of one client's budget: takes one of `max` slots of `baseUrl`'s origin if one is free,
 * with the Web Locks of the page it was made in (read once, here, never at import).
 */
export function streamSlots(
  baseUrl: string,
  max: number,
): () => Promise<ReleaseStreamSlot | undefined> {
  const locks = platformLocks();
  // The origin is worked out when a slot is taken, not here: a binding makes its slots again at
  // every render.
  return () => takeStreamSlot(streamBudgetKey(baseUrl), max, locks);
}
