/**
 * The stream's entry point in the client: a {@link TaskStream} whose implementation, the stream path,
 * is loaded on first use (see `load-on-first-use.ts`).
 */
import { loadStreamPath } from '../load-on-first-use.js';
import type * as streamPath from './task-event-stream.js';
import type { TaskEventStream, TaskEventStreamSetup } from './task-event-stream.js';
import type { TaskStream } from '../types.js';

/**
 * A {@link TaskStream} whose implementation is loaded on the first `next()`, before any request is
 * made: if the code cannot be loaded, nothing was sent and the stream rejects with `network`.
 */
export class LazyTaskStream<Event> implements TaskStream<Event>, AsyncIterableIterator<Event> {
  readonly #setup: TaskEventStreamSetup;
  readonly #load: () => Promise<typeof streamPath>;
  #stream: Promise<TaskEventStream<Event>> | undefined;
  #loaded: TaskEventStream<Event> | undefined;
  #returned = false;

  /** `load` loads the stream path; tests pass one that fails. Defaults to `loadStreamPath`. */
  constructor(
    setup: TaskEventStreamSetup,
    load: () => Promise<typeof streamPath> = loadStreamPath,
  ) {
    this.#setup = setup;
    this.#load = load;
  }

  /** The task id from `x-task-id`, once the service has answered. */
  get taskId(): string | undefined {
    return this.#loaded?.taskId;
  }

  /** The stream is its own iterator, like a generator. */
  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The next event; the first call loads the stream path, then sends the request. */
  next(): Promise<IteratorResult<Event, undefined>> {
    if (this.#returned) return Promise.resolve({ value: undefined, done: true });
    // Once loaded, straight through: no extra promise per event on a fast stream.
    if (this.#loaded !== undefined) return this.#loaded.next();
    return this.#loadThenNext();
  }

  async #loadThenNext(): Promise<IteratorResult<Event, undefined>> {
    this.#stream ??= this.#load().then(
      (module) => {
        this.#loaded = new module.TaskEventStream<Event>(this.#setup);
        return this.#loaded;
      },
      (error: unknown) => {
        // Like a generator that threw: this call rejects, later ones are done.
        this.#returned = true;
        throw error;
      },
    );
    const stream = await this.#stream;
    // `return()` may have come while the code was loading: then nothing is sent.
    if (this.#returned) return { value: undefined, done: true };
    return stream.next();
  }

  /** Stops the stream (a `break` out of `for await` calls this): closes the connection if open. */
  async return(): Promise<IteratorResult<Event, undefined>> {
    this.#returned = true;
    await this.#loaded?.return();
    return { value: undefined, done: true };
  }
}
