/**
 * The page's Web Locks API (`navigator.locks`), which the browser shares between the tabs of an
 * origin and frees by itself when a tab closes: the stream budget's slots and the tab poll sharing
 * both hold their locks through it.
 */

/**
 * The part of the Web Locks API taskwire uses, written by shape so that the package's declarations
 * need no DOM library (a server's or a build tool's type check reads them).
 */
export interface WebLocks {
  /** Requests the lock `name`; `callback` holds it until the promise it returns settles. */
  request(
    name: string,
    options: { ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<void> | undefined,
  ): Promise<unknown>;
}

/**
 * This tab's `navigator.locks`, or `undefined` where there is none (Node, an old browser). Read
 * per call, never at import, so that a module loaded on a server never touches `navigator`.
 */
export function platformLocks(): WebLocks | undefined {
  const locks = (globalThis as { navigator?: { locks?: WebLocks } }).navigator?.locks;
  return typeof locks?.request === 'function' ? locks : undefined;
}
