/**
 * The idle watchdog of every read of an event stream, the stream's and the events reads' alike
 * (docs/protocol.md, "The client"): a proxy that holds a connection open but silent must not hang
 * the client. It judges the network's silence only: it runs while a read waits for bytes (each
 * chunk, keep-alives included, arms it again), and when it fires it looks once more a turn later,
 * so that bytes that came in while the page's own thread was busy (a long task, a starved process)
 * are read before the read is called silent.
 */

/** A watchdog over one read. */
export interface IdleWatchdog {
  /** (Re)starts the wait: called before a read waits for bytes, and for every chunk that came. */
  arm(): void;
  /** Stops the wait: the bytes came, or the read is done. */
  disarm(): void;
}

/** Creates a watchdog that calls `onSilent` once the read has had no byte for `ms`. */
export function createIdleWatchdog(ms: number, onSilent: () => void): IdleWatchdog {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    arm() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = setTimeout(onSilent, 0);
      }, ms);
    },
    disarm() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
