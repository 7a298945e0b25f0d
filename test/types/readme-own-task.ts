import { createReferenceService, defineTask } from 'taskwire/reference';
import * as z from 'zod/mini';

const resize = defineTask({
  name: 'resize-image',
  params: z.object({ width: z.int().check(z.gte(1)) }),
  monetization: { toolId: 'resize', price: 1 },
  async run(ctx, { width }) {
    ctx.progress(50, 1); // task.progress
    await ctx.sleep(1000); // scaled by timeScale, aborted by close()
    ctx.emit('resized', { width }); // event.resized, with an id
    ctx.charge({ toolId: 'resize', price: 1, amount: 1 });
    if (width > 10_000) ctx.fail('TOO_WIDE', 'At most 10,000 pixels.', 422); // ends the run
    return { url: 'https://…' }; // COMPLETED with this result
  },
});
createReferenceService({ tasks: [resize] });
