/**
 * The stream budget at the client's stream entry (docs/protocol.md, "The stream budget"): a stream
 * takes a slot before its POST and holds it until it ends (its final event, an error, `return()` or
 * the caller's abort); when no slot is free, the task is started with Submit and followed with Get
 * Result instead ({@link followByPolling}), so the page's other requests always find a connection
 * and the task still runs exactly once.
 */
import { TaskwireError } from '../errors.js';
import { isFinalEvent } from '../../protocol/stream-events.js';
import type { StreamOptions, TaskStream } from '../types.js';
import type { ReleaseStreamSlot } from './stream-slots.js';

/** What a {@link BudgetedTaskStream} needs: its slot, and both ways of running the task. */
export interface BudgetedTaskStreamSetup<Event> {
  /** Takes a slot if one is free now; `undefined` when the budget is spent. */
  takeSlot(): Promise<ReleaseStreamSlot | undefined>;
  /** Opens the real stream, with the caller's options. */
  openStream(options: StreamOptions): TaskStream<Event>;
  /**
   * Starts the task with Submit and follows it with Get Result; `signal` ends the follow, and
   * `onTaskId` is called once Submit has answered.
   */
  follow(signal: AbortSignal, onTaskId: (taskId: string) => void): AsyncIterator<Event>;
  /** The caller's options. */
  options: StreamOptions;
}

type Inner<Event> =
  | { kind: 'stream'; stream: TaskStream<Event>; iterator: AsyncIterator<Event> }
  | { kind: 'follow'; iterator: AsyncIterator<Event> };

/**
 * A {@link TaskStream} under the stream budget: on the first `next()`, a stream if a slot is free,
 * else the same task followed by polling. Nothing is sent before the first `next()`.
 */
export class BudgetedTaskStream<Event> implements TaskStream<Event>, AsyncIterableIterator<Event> {
  readonly #setup: BudgetedTaskStreamSetup<Event>;
  #inner: Promise<Inner<Event> | undefined> | undefined;
  #opened: Inner<Event> | undefined;
  #release: ReleaseStreamSlot | undefined;
  #followTaskId: string | undefined;
  /** Ends a follow: the caller's abort or `return()`. */
  readonly #followAbort = new AbortController();
  #returned = false;
  #done = false;

  constructor(setup: BudgetedTaskStreamSetup<Event>) {
    this.#setup = setup;
  }

  /** The task id: from `x-task-id` on a stream, from Submit's answer when followed by polling. */
  get taskId(): string | undefined {
    const inner = this.#opened;
    return inner?.kind === 'stream' ? inner.stream.taskId : this.#followTaskId;
  }

  /** The stream is its own iterator, like a generator. */
  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The next event; the first call takes a slot, then sends the stream's POST or Submit. */
  async next(): Promise<IteratorResult<Event, undefined>> {
    if (this.#done) return { value: undefined, done: true };
    const inner = await (this.#inner ??= this.#start());
    if (inner === undefined || this.#done) return { value: undefined, done: true };
    let result: IteratorResult<Event, unknown>;
    try {
      result = await inner.iterator.next();
    } catch (error) {
      this.#end();
      if (this.#returned) return { value: undefined, done: true };
      throw this.#typed(error);
    }
    if (result.done) {
      this.#end();
      return { value: undefined, done: true };
    }
    // The final event frees the slot at once: the service closes the stream right after it.
    if (isFinalEvent(result.value as { type: string })) this.#end();
    return { value: result.value, done: false };
  }

  /** Stops the stream (a `break` out of `for await` calls this): closes it and frees its slot. */
  async return(): Promise<IteratorResult<Event, undefined>> {
    this.#returned = true;
    const inner = this.#opened;
    this.#end();
    await inner?.iterator.return?.();
    return { value: undefined, done: true };
  }

  readonly #onAbort = (): void => {
    // The connection closes with the caller's signal; the slot must not wait for the next `next()`.
    this.#followAbort.abort(this.#setup.options.signal?.reason);
    this.#release?.();
  };

  async #start(): Promise<Inner<Event> | undefined> {
    const { options } = this.#setup;
    // An aborted signal takes no slot, or gives back the one it just got: the stream then rejects
    // with `aborted` as it always does, and nothing is sent.
    const release = options.signal?.aborted ? undefined : await this.#setup.takeSlot();
    if (this.#returned) {
      release?.();
      return undefined;
    }
    if (options.signal?.aborted) {
      release?.();
      return this.#openStream();
    }
    options.signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (release !== undefined) {
      this.#release = release;
      return this.#openStream();
    }
    const iterator = this.#setup.follow(this.#followAbort.signal, (taskId) => {
      this.#followTaskId = taskId;
      options.onOpen?.({ taskId });
    });
    return (this.#opened = { kind: 'follow', iterator });
  }

  /** The real stream, with the caller's options. */
  #openStream(): Inner<Event> {
    const stream = this.#setup.openStream(this.#setup.options);
    return (this.#opened = { kind: 'stream', stream, iterator: stream[Symbol.asyncIterator]() });
  }

  /** A follow's failure as a stream's: the caller's abort is `aborted`, with the task id. */
  #typed(error: unknown): unknown {
    const signal = this.#setup.options.signal;
    if (this.#opened?.kind === 'follow' && signal?.aborted) {
      return new TaskwireError('aborted', 'The stream was aborted.', {
        taskId: this.#followTaskId,
        cause: signal.reason,
      });
    }
    return error;
  }

  /** No more events: the slot is freed and the caller's signal let go. */
  #end(): void {
    this.#done = true;
    this.#release?.();
    this.#setup.options.signal?.removeEventListener('abort', this.#onAbort);
    if (this.#opened?.kind === 'follow') this.#followAbort.abort();
  }
}
