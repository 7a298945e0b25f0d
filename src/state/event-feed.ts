/**
 * The page's one read of its tasks' logs (docs/protocol.md, "Resumable streams (0.4)"). Where a
 * service offers resumable streams, every stream of a page follows its task through one
 * multiplexed read that names the tasks and the positions the page has: the first task of a feed
 * with no read opens one at once; a task added to an open read opens a new one, and the old one is
 * closed once the new one answered, so the page holds one long-lived connection whatever the
 * number of its streams. Each listener gets the messages after its own position, once and in
 * order, whatever the overlap of two reads or a read opened again after a break repeats.
 */
import { TaskwireError } from '../client/errors.js';
import { retryDelay } from '../protocol/retry-after.js';
import type { ReleaseStreamSlot } from './stream-slots.js';

/** A task the feed follows, and the position after which its messages are wanted. */
export interface FollowedTask {
  /** The task name. */
  task: string;
  /** The task id. */
  id: string;
  /** The position of the last message the page has, or `null` for the whole log. */
  after: string | null;
}

/** One message of a multiplexed read: a task's message with its position, or why it cannot be read. */
export type MultiplexedMessage =
  | { task: string; id: string; position: string; event: unknown }
  | { task: string; id: string; error: TaskwireError };

/** Opens one multiplexed read of `follow`; `onOpen` is called once the service answered it. */
export type OpenMultiplexedRead = (
  follow: readonly FollowedTask[],
  options: { signal: AbortSignal; onOpen: () => void },
) => AsyncIterable<MultiplexedMessage>;

/** What a follower of a task is told. */
export interface EventFeedListener {
  /** A message (its checked event) after the listener's position, in order, each once. */
  message(position: string, event: unknown): void;
  /**
   * The task cannot be read from its log (it is unknown there, past its retention, the service
   * offers no such read, the stream budget has no slot, or the read failed too often): the listener
   * is dropped, and follows the task with Get Result instead.
   */
  unavailable(error: TaskwireError): void;
}

/** The page's one read of its tasks' logs. */
export interface EventFeed {
  /**
   * Follows `task`'s log after `after` (`null`: from its first message); the returned function
   * stops following. A task's final message ends its following by itself.
   */
  follow(
    target: { task: string; id: string },
    after: string | null,
    listener: EventFeedListener,
  ): () => void;
}

/** Settings of {@link createEventFeed}. */
export interface EventFeedOptions {
  /** Opens a multiplexed read. */
  open: OpenMultiplexedRead;
  /** Whether an event is its task's last (`task.completed`, `task.failed`). */
  isFinal: (event: unknown) => boolean;
  /**
   * Takes a slot of the stream budget for the feed's connection, or `undefined` when none is free;
   * without it the feed takes none.
   */
  takeSlot?: () => Promise<ReleaseStreamSlot | undefined>;
  /** Reads opened again in a row without a message before the followers give up. Defaults to `3`. */
  maxAttempts?: number;
  /**
   * The first delay before a broken read is opened again, doubled each time, when the service asked
   * for no delay of its own (`Retry-After`). Defaults to `250`.
   */
  retryDelayMs?: number;
  /**
   * How long the page must have been hidden for its return to open the read again at once (a
   * sleeping phone's connection is gone, though nothing said so), in milliseconds. Defaults to `10000`.
   */
  hiddenForMs?: number;
}

/**
 * The order of two positions of one task: shorter first, then by their characters (docs/protocol.md:
 * positions are ordered strings of one width, which this also orders when a service pads none).
 */
export function comparePositions(left: string, right: string): number {
  if (left.length !== right.length) return left.length - right.length;
  return left < right ? -1 : left > right ? 1 : 0;
}

interface Follower {
  listener: EventFeedListener;
  position: string | null;
}

interface Followed {
  task: string;
  id: string;
  followers: Set<Follower>;
}

interface Read {
  abort: AbortController;
}

const keyOf = (task: string, id: string) => `${task}\u0000${id}`;

/** Creates an {@link EventFeed} over `options.open`. */
export function createEventFeed(options: EventFeedOptions): EventFeed {
  const maxAttempts = options.maxAttempts ?? 3;
  const retryDelayMs = options.retryDelayMs ?? 250;
  const hiddenForMs = options.hiddenForMs ?? 10_000;
  const followed = new Map<string, Followed>();
  // The read that delivers, and the one opened to replace it until it answers.
  let live: Read | undefined;
  let next: Read | undefined;
  let openTimer: ReturnType<typeof setTimeout> | undefined;
  // How many reads are being opened whose tasks are not yet chosen: a follow then joins them.
  let choosing = 0;
  let failures = 0;
  let releaseSlot: ReleaseStreamSlot | undefined;
  let takingSlot: Promise<boolean> | undefined;
  let stopWatchingPage: (() => void) | undefined;

  const drop = (entry: Followed, follower: Follower) => {
    entry.followers.delete(follower);
    if (entry.followers.size === 0) followed.delete(keyOf(entry.task, entry.id));
    if (followed.size === 0) shutDown();
  };

  const shutDown = () => {
    clearTimeout(openTimer);
    openTimer = undefined;
    live?.abort.abort();
    next?.abort.abort();
    live = next = undefined;
    failures = 0;
    releaseSlot?.();
    releaseSlot = undefined;
    stopWatchingPage?.();
    stopWatchingPage = undefined;
  };

  const giveUp = (error: TaskwireError, entries: Iterable<Followed> = [...followed.values()]) => {
    for (const entry of entries) {
      for (const follower of [...entry.followers]) {
        drop(entry, follower);
        follower.listener.unavailable(error);
      }
    }
  };

  const deliver = (item: MultiplexedMessage) => {
    const entry = followed.get(keyOf(item.task, item.id));
    if (entry === undefined) return;
    if ('error' in item) return giveUp(item.error, [entry]);
    const final = options.isFinal(item.event);
    for (const follower of [...entry.followers]) {
      if (follower.position !== null && comparePositions(item.position, follower.position) <= 0) {
        continue;
      }
      follower.position = item.position;
      if (final) drop(entry, follower);
      follower.listener.message(item.position, item.event);
    }
  };

  /** The tasks to read, each after the earliest position one of its followers has. */
  const wanted = (): FollowedTask[] =>
    [...followed.values()].map(({ task, id, followers }) => {
      let after: string | null | undefined;
      for (const { position } of followers) {
        if (position === null) after = null;
        else if (after === undefined || (after !== null && comparePositions(position, after) < 0))
          after = position;
      }
      return { task, id, after: after ?? null };
    });

  const hasSlot = async (): Promise<boolean> => {
    if (options.takeSlot === undefined || releaseSlot !== undefined) return true;
    takingSlot ??= options.takeSlot().then((release) => {
      takingSlot = undefined;
      if (release !== undefined && followed.size === 0) release();
      else releaseSlot = release;
      return release !== undefined;
    });
    return takingSlot;
  };

  const retry = (error: TaskwireError) => {
    failures += 1;
    if (failures >= maxAttempts) return giveUp(error);
    // The service's Retry-After, when it sent one, as for every request that may heal
    // (docs/protocol.md, "Get Result"); else a short wait, doubled each time.
    scheduleOpen(retryDelay(failures - 1, error.retryAfterMs, retryDelayMs));
  };

  const openRead = async () => {
    openTimer = undefined;
    if (followed.size === 0) return;
    choosing += 1;
    let slot: boolean;
    try {
      slot = await hasSlot();
    } finally {
      choosing -= 1;
    }
    if (!slot) {
      return giveUp(
        new TaskwireError('network', 'Every stream slot of this service is in use.', {}),
      );
    }
    if (followed.size === 0) return;
    watchPage();
    next?.abort.abort();
    const read: Read = { abort: new AbortController() };
    next = read;
    let delivered = false;
    try {
      const messages = options.open(wanted(), {
        signal: read.abort.signal,
        onOpen: () => {
          if (next !== read) return;
          // The new read answered: it takes over, and the one it replaces closes.
          live?.abort.abort();
          live = read;
          next = undefined;
        },
      });
      for await (const item of messages) {
        if (read.abort.signal.aborted) return;
        delivered = true;
        failures = 0;
        deliver(item);
      }
      if (read.abort.signal.aborted || live !== read) return;
      live = undefined;
      // The service closed the read with tasks still followed: read again after their positions.
      if (followed.size > 0) {
        if (delivered) scheduleOpen(0);
        else retry(new TaskwireError('network', 'The read of the task log ended early.', {}));
      }
    } catch (error) {
      if (read.abort.signal.aborted) return;
      if (live === read) live = undefined;
      if (next === read) next = undefined;
      const failure = TaskwireError.isInstance(error)
        ? error
        : new TaskwireError('network', 'The read of the task log failed.', { cause: error });
      // A refusal that will not heal (no such endpoint, a token refused): follow by Get Result.
      if (!failure.retryable) return giveUp(failure);
      retry(failure);
    }
  };

  const scheduleOpen = (delayMs: number) => {
    clearTimeout(openTimer);
    openTimer = setTimeout(() => void openRead(), delayMs);
  };

  /** A page back from sleep, the back/forward cache or the offline: its connection may be dead. */
  const wake = () => {
    if (followed.size === 0) return;
    failures = 0;
    // At once, not after a retry delay still running.
    clearTimeout(openTimer);
    void openRead();
  };

  const watchPage = () => {
    if (stopWatchingPage !== undefined || typeof window === 'undefined') return;
    let hiddenAt: number | undefined;
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        hiddenAt = Date.now();
        return;
      }
      if (hiddenAt !== undefined && Date.now() - hiddenAt >= hiddenForMs) wake();
      hiddenAt = undefined;
    };
    const onPageShow = (event: Event) => {
      if ((event as Event & { persisted?: boolean }).persisted) wake();
    };
    window.addEventListener('online', wake);
    window.addEventListener('pageshow', onPageShow);
    document.addEventListener('visibilitychange', onVisibility);
    stopWatchingPage = () => {
      window.removeEventListener('online', wake);
      window.removeEventListener('pageshow', onPageShow);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  };

  const unfollow = (entry: Followed, follower: Follower) => () => {
    if (entry.followers.has(follower)) drop(entry, follower);
  };

  return {
    follow(target, after, listener) {
      const key = keyOf(target.task, target.id);
      let entry = followed.get(key);
      if (entry === undefined) {
        entry = { task: target.task, id: target.id, followers: new Set() };
        followed.set(key, entry);
      }
      const follower: Follower = { listener, position: after };
      const known = entry;
      known.followers.add(follower);
      // A read being opened takes the task with the others. A feed with no read opens one at
      // once: a page's next start waits for no timer (docs/protocol.md, "Resumable streams
      // (0.4)"). An open read is replaced after a moment, so that the tasks added meanwhile (fifty
      // streams started at once) open one read, not one each.
      if (choosing > 0) return unfollow(known, follower);
      if (live === undefined && next === undefined && openTimer === undefined) void openRead();
      else scheduleOpen(0);
      return unfollow(known, follower);
    },
  };
}
