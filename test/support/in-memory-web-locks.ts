/**
 * A Web Locks API stand-in (`navigator.locks`) for jsdom and Node, which have none: a platform
 * stand-in, not a mock of our code. One lock space is shared by several "tabs", each its own
 * `LockManager` with its own client id, as the tabs of one origin share `navigator.locks`.
 *
 * It follows the Web Locks rules the package relies on: exclusive and shared modes, requests granted
 * in order per name, `ifAvailable` (the callback gets `null` when the lock cannot be had at once),
 * `signal` (a waiting request is dropped and rejects with the signal's reason), `steal` (the holders
 * lose the lock, their request promises reject with an `AbortError`), the lock held until the
 * callback's promise settles, `query()`, and the option checks that throw `NotSupportedError`.
 * The callback runs on a later microtask, never synchronously, as in a browser.
 */

interface Request {
  name: string;
  mode: LockMode;
  clientId: string;
  callback: LockGrantedCallback<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** The shared lock space, and a `LockManager` per tab over it. */
export interface InMemoryWebLocks {
  /** A `LockManager` for the tab with this client id (the same object for the same id). */
  tab(clientId: string): LockManager;
  /** The first tab's `LockManager`, for a test with a single tab. */
  readonly locks: LockManager;
  /**
   * The tab goes away, as a closed tab does: its locks are released and its waiting requests
   * dropped (their promises never settle, since the page that would see them is gone).
   */
  closeTab(clientId: string): void;
  /** The names of the locks held now, in the order they were granted. */
  heldNames(): string[];
}

function domException(message: string, name: string): DOMException {
  return new DOMException(message, name);
}

/** Creates an empty lock space; `tab(id)` gives each "tab" its own `LockManager` over it. */
export function createInMemoryWebLocks(): InMemoryWebLocks {
  const held: Request[] = [];
  const queues = new Map<string, Request[]>();
  const managers = new Map<string, LockManager>();

  const queueOf = (name: string): Request[] => {
    let queue = queues.get(name);
    if (queue === undefined) queues.set(name, (queue = []));
    return queue;
  };

  /** Whether a request for `name` in `mode` could be granted now, ahead of `queue` (spec: "grantable"). */
  const grantable = (name: string, mode: LockMode, queue: Request[]): boolean => {
    const holders = held.filter((lock) => lock.name === name);
    if (mode === 'exclusive') return holders.length === 0 && queue.length === 0;
    return holders.every((lock) => lock.mode === 'shared') && queue.length === 0;
  };

  const release = (request: Request): void => {
    const index = held.indexOf(request);
    if (index === -1) return;
    held.splice(index, 1);
    processQueue(request.name);
  };

  const grant = (request: Request): void => {
    held.push(request);
    request.signal?.removeEventListener('abort', request.onAbort!);
    const lock = { name: request.name, mode: request.mode } as Lock;
    queueMicrotask(() => {
      let result: Promise<unknown>;
      try {
        result = Promise.resolve(request.callback(lock));
      } catch (error) {
        result = Promise.reject(error);
      }
      result.then(
        (value) => {
          release(request);
          request.resolve(value);
        },
        (error: unknown) => {
          release(request);
          request.reject(error);
        },
      );
    });
  };

  /** Grants the waiting requests of `name` that can go now, in order. */
  const processQueue = (name: string): void => {
    const queue = queueOf(name);
    while (queue.length > 0) {
      const next = queue[0]!;
      if (!grantable(name, next.mode, [])) return;
      queue.shift();
      grant(next);
    }
  };

  const manager = (clientId: string): LockManager =>
    ({
      request(
        name: string,
        optionsOrCallback: LockOptions | LockGrantedCallback<unknown>,
        maybeCallback?: LockGrantedCallback<unknown>,
      ): Promise<unknown> {
        const options: LockOptions =
          typeof optionsOrCallback === 'function' ? {} : optionsOrCallback;
        const callback =
          typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback;
        if (typeof callback !== 'function') {
          return Promise.reject(new TypeError('navigator.locks.request: the callback is missing.'));
        }
        const mode = options.mode ?? 'exclusive';
        if (name.startsWith('-')) {
          return Promise.reject(
            domException('Lock names may not start with "-".', 'NotSupportedError'),
          );
        }
        if (options.steal && options.ifAvailable) {
          return Promise.reject(
            domException('steal and ifAvailable together.', 'NotSupportedError'),
          );
        }
        if (options.steal && mode !== 'exclusive') {
          return Promise.reject(
            domException('steal needs the exclusive mode.', 'NotSupportedError'),
          );
        }
        if (options.signal && (options.steal || options.ifAvailable)) {
          return Promise.reject(
            domException('signal with steal or ifAvailable.', 'NotSupportedError'),
          );
        }
        if (options.signal?.aborted) return Promise.reject(options.signal.reason);

        return new Promise((resolve, reject) => {
          const request: Request = {
            name,
            mode,
            clientId,
            callback,
            resolve,
            reject,
            signal: options.signal,
            onAbort: undefined,
          };
          const queue = queueOf(name);
          if (options.steal) {
            for (const lock of held.filter((lock) => lock.name === name)) {
              held.splice(held.indexOf(lock), 1);
              lock.reject(domException('The lock was stolen.', 'AbortError'));
            }
            grant(request);
            return;
          }
          if (options.ifAvailable && !grantable(name, mode, queue)) {
            queueMicrotask(() => {
              let result: Promise<unknown>;
              try {
                result = Promise.resolve(callback(null));
              } catch (error) {
                result = Promise.reject(error);
              }
              result.then(resolve, reject);
            });
            return;
          }
          if (grantable(name, mode, queue)) {
            grant(request);
            return;
          }
          if (options.signal !== undefined) {
            const signal = options.signal;
            request.onAbort = () => {
              const index = queue.indexOf(request);
              if (index === -1) return;
              queue.splice(index, 1);
              reject(signal.reason);
              processQueue(name);
            };
            signal.addEventListener('abort', request.onAbort, { once: true });
          }
          queue.push(request);
        });
      },

      async query(): Promise<LockManagerSnapshot> {
        const info = (request: Request): LockInfo => ({
          name: request.name,
          mode: request.mode,
          clientId: request.clientId,
        });
        return {
          held: held.map(info),
          pending: [...queues.values()].flat().map(info),
        };
      },
    }) as LockManager;

  const tab = (clientId: string): LockManager => {
    let found = managers.get(clientId);
    if (found === undefined) managers.set(clientId, (found = manager(clientId)));
    return found;
  };

  return {
    tab,
    locks: tab('tab-1'),
    closeTab(clientId) {
      for (const [name, queue] of queues) {
        const kept = queue.filter((request) => request.clientId !== clientId);
        queues.set(name, kept);
      }
      const names = new Set<string>();
      for (const lock of held.filter((lock) => lock.clientId === clientId)) {
        held.splice(held.indexOf(lock), 1);
        names.add(lock.name);
      }
      for (const name of queues.keys()) processQueue(name);
      for (const name of names) processQueue(name);
    },
    heldNames: () => held.map((lock) => lock.name),
  };
}
