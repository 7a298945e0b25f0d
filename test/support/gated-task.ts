/**
 * A task that reports progress and a custom event at once, then waits until the test opens its gate:
 * "while the tasks run" becomes an event the test controls, not a window of time.
 */
import * as z from 'zod/mini';
import { defineTask } from '../../src/reference/index.js';

/** A fresh gated task (`gated`, params `{ n, fail? }`, result `{ n }`) and the function that opens its gate. */
export function gatedTask() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const task = defineTask({
    name: 'gated',
    params: z.object({ n: z.number(), fail: z.optional(z.boolean()) }),
    async run(context, params) {
      context.progress(10, 1);
      context.emit('started', { n: params.n });
      await gate;
      if (params.fail) context.fail('GAVE_UP', `Task ${params.n} gave up.`);
      context.progress(100, 0);
      return { n: params.n };
    },
  });
  return { task, open };
}
