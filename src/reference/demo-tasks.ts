/**
 * The demo tasks of the reference service (docs/protocol.md, "The reference service"): together
 * they cover every path of the interface: an instant task with no monetization, one with progress,
 * partial results and custom events, one with charged and failed sub-tools, preflights, one with a
 * static monetization, one that fails, one that runs past the Execute limit, and one that notifies.
 * Every delay is nominal and scaled by the service's `timeScale` through `ctx.sleep`.
 *
 * Every task that charges quotes exactly what it charges: its Options answer's `credits` equals the
 * `usage.credits` of a run with the same params, since nothing in the demo depends on chance. A task
 * whose price follows its params has a preflight; one whose price is fixed has a static monetization.
 */
import * as z from 'zod/mini';
import type { JsonObject } from '../protocol/records.js';
import type { OptionsResult } from '../protocol/start-answers.js';
import type { TaskSchemas } from '../protocol/task-schemas.js';
import type { AnyTaskDefinition } from './define-task.js';
import { defineTask } from './define-task.js';

/** The demo user token, which authenticates the user `demo-user`. */
export const DEMO_USER_TOKEN = 'demo-user-token';
/** A second demo user token, for user `other-user`, to see that users do not see each other's tasks. */
export const OTHER_USER_TOKEN = 'other-user-token';
/** The demo client token, sent as `x-app-authorization: Bearer demo-client-token`. */
export const DEMO_CLIENT_TOKEN = 'demo-client-token';
/** The demo user tokens and the user ids they stand for. */
export const DEMO_USER_TOKENS: Readonly<Record<string, string>> = Object.freeze({
  [DEMO_USER_TOKEN]: 'demo-user',
  [OTHER_USER_TOKEN]: 'other-user',
});

/** Where the demo's fake files live; nothing is served there. */
const FILES = 'https://files.example.com';

/** The preflight answer of a task that charges `toolId` `price` credits per unit, for `units` units. */
function quotePerUnit(toolId: string, units: number, price: number): OptionsResult {
  return { monetization: { toolId }, usageAmount: units, credits: units * price };
}

// echo ----------------------------------------------------------------------------------------
const echoParams = z.object({ message: z.string().check(z.maxLength(10_000)) });
const echoResult = z.object({ echo: z.string() });

/** `echo`: finishes at once, no monetization; returns the message. */
export const echoTask = defineTask({
  name: 'echo',
  params: echoParams,
  result: echoResult,
  run: (_context, params) => ({ echo: params.message }),
});

// render-video --------------------------------------------------------------------------------
const renderVideoParams = z.object({
  frames: z._default(z.optional(z.int().check(z.gte(1), z.lte(500))), 20),
  frameMs: z._default(z.optional(z.int().check(z.gte(1), z.lte(10_000))), 150),
  // A way to see a task fail on purpose (taskwire-check's execute.failed uses it).
  failAtFrame: z.optional(z.int().check(z.gte(1), z.lte(500))),
});
/** Final and partial results of `render-video`: a partial one has the frames rendered so far. */
const renderVideoResult = z.object({ url: z.string(), frames: z.number() });
const renderVideoEvents = z.union([
  z.object({ type: z.literal('event.frame-rendered'), frame: z.number() }),
  z.object({ type: z.literal('event.thumbnail-ready'), url: z.string() }),
]);
/** Credits per rendered frame. */
const RENDER_PRICE = 0.5;

/**
 * `render-video`: renders `frames` frames of `frameMs` each (3 s by default at time scale 1),
 * reporting progress per frame, a partial result every 5 frames, `event.frame-rendered` per frame
 * and `event.thumbnail-ready` after the first; charges `video-render` per frame, which its
 * preflight quotes. With `failAtFrame`, it fails when that frame is due (reason `RENDER_FAILED`,
 * nothing charged): a task that fails for the params it was given.
 */
export const renderVideoTask = defineTask({
  name: 'render-video',
  params: renderVideoParams,
  result: renderVideoResult,
  events: renderVideoEvents,
  enablePreflight: true,
  options: ({ frames }) => quotePerUnit('video-render', frames, RENDER_PRICE),
  run: async (context, { frames, frameMs, failAtFrame }) => {
    const base = `${FILES}/videos/${context.taskId}`;
    for (let frame = 1; frame <= frames; frame += 1) {
      await context.sleep(frameMs);
      if (frame === failAtFrame)
        return context.fail('RENDER_FAILED', `Frame ${frame} failed to render (failAtFrame).`);
      const secondsLeft = ((frames - frame) * frameMs * context.timeScale) / 1000;
      context.progress((frame / frames) * 100, secondsLeft);
      context.emit('frame-rendered', { frame });
      if (frame === 1) context.emit('thumbnail-ready', { url: `${base}/thumbnail.jpg` });
      if (frame % 5 === 0 && frame < frames) {
        context.partial({ url: `${base}/preview-${frame}.mp4`, frames: frame });
      }
    }
    context.charge({ toolId: 'video-render', price: RENDER_PRICE, amount: frames });
    return { url: `${base}/video.mp4`, frames };
  },
});

// generate-images -----------------------------------------------------------------------------
const generateImagesParams = z.object({
  prompt: z.string().check(z.minLength(1), z.maxLength(2000)),
  count: z._default(z.optional(z.int().check(z.gte(1), z.lte(8))), 1),
});
const generateImagesResult = z.object({ images: z.array(z.string()) });
/** Credits per generated image. */
const IMAGE_PRICE = 2;
/** Credits per upscaled image. */
const UPSCALE_PRICE = 0.5;

/**
 * `generate-images`: makes `count` images (partial result after each), charges `image-gen` and
 * `upscale` per image, and records a failed `safety-check` sub-tool that is not charged; its
 * preflight quotes 2.5 credits per image, the two charged tools together.
 */
export const generateImagesTask = defineTask({
  name: 'generate-images',
  params: generateImagesParams,
  result: generateImagesResult,
  enablePreflight: true,
  options: ({ count }) => quotePerUnit('image-gen', count, IMAGE_PRICE + UPSCALE_PRICE),
  run: async (context, { count }) => {
    const images: string[] = [];
    for (let index = 1; index <= count; index += 1) {
      await context.sleep(200);
      images.push(`${FILES}/images/${context.taskId}/${index}.png`);
      context.progress((index / count) * 100, ((count - index) * 200 * context.timeScale) / 1000);
      context.partial({ images: [...images] });
    }
    context.charge({ toolId: 'image-gen', price: IMAGE_PRICE, amount: count });
    context.charge({ toolId: 'upscale', price: UPSCALE_PRICE, amount: count });
    context.charge({ toolId: 'safety-check', price: 1, amount: 1, failed: true });
    return { images };
  },
});

// translate-text ------------------------------------------------------------------------------
const translateTextParams = z.object({
  text: z.string().check(z.minLength(1), z.maxLength(100_000)),
  targetLanguage: z.string().check(z.regex(/^[a-z]{2,3}(-[A-Z]{2})?$/)),
});
const translateTextResult = z.object({ text: z.string(), targetLanguage: z.string() });
/** Characters per usage unit of `translate`. */
const TRANSLATE_UNIT_CHARACTERS = 100;

function translateUnits(text: string): number {
  return Math.max(1, Math.ceil(text.length / TRANSLATE_UNIT_CHARACTERS));
}

/**
 * `translate-text`: a preflight task (`enablePreflight`): Options prices it at 1 credit per started
 * 100 characters of `text`, and the run charges exactly that.
 */
export const translateTextTask = defineTask({
  name: 'translate-text',
  params: translateTextParams,
  result: translateTextResult,
  enablePreflight: true,
  options: ({ text }) => quotePerUnit('translate', translateUnits(text), 1),
  run: async (context, { text, targetLanguage }) => {
    await context.sleep(300);
    context.charge({ toolId: 'translate', price: 1, amount: translateUnits(text) });
    return { text: `[${targetLanguage}] ${text}`, targetLanguage };
  },
});

// failing-task --------------------------------------------------------------------------------
const failingTaskParams = z.object({
  reason: z._default(
    z.optional(z.string().check(z.regex(/^[A-Z][A-Z0-9_]{0,63}$/))),
    'DEMO_FAILURE',
  ),
});

/** `failing-task`: reports some progress, then fails with its own `reason` (status code 500). */
// Its result named, so its declaration names the protocol's JsonObject, not the React entry's.
export const failingTask = defineTask<typeof failingTaskParams, JsonObject>({
  name: 'failing-task',
  params: failingTaskParams,
  run: async (context, { reason }) => {
    await context.sleep(100);
    context.progress(50, (100 * context.timeScale) / 1000);
    return context.fail(reason, 'The demo task failed on purpose.');
  },
});

// slow-report ---------------------------------------------------------------------------------
const slowReportParams = z.object({
  seconds: z._default(z.optional(z.number().check(z.gte(0), z.lte(600))), 30),
});
const slowReportResult = z.object({ url: z.string(), seconds: z.number() });

/**
 * `slow-report`: runs for `seconds` nominal seconds (30 by default, past the 20 s Execute limit),
 * reporting progress every second.
 */
export const slowReportTask = defineTask({
  name: 'slow-report',
  params: slowReportParams,
  result: slowReportResult,
  run: async (context, { seconds }) => {
    const steps = Math.max(1, Math.ceil(seconds));
    for (let step = 1; step <= steps; step += 1) {
      await context.sleep((seconds * 1000) / steps);
      context.progress(
        (step / steps) * 100,
        ((steps - step) * seconds * context.timeScale) / steps,
      );
    }
    return { url: `${FILES}/reports/${context.taskId}.pdf`, seconds };
  },
});

// export-data ---------------------------------------------------------------------------------
const exportDataParams = z.object({ format: z.enum(['csv', 'json']) });
const exportDataResult = z.object({ url: z.string(), format: z.enum(['csv', 'json']) });

/** The static monetization of `export-data`: one use of `export` per run, whatever the params. */
const EXPORT_MONETIZATION = { toolId: 'export', price: 1 } as const;

/**
 * `export-data`: a notifying task (`notifies: true`) with a static monetization, `export` at 1
 * credit, which each run charges once; makes a file of the given format.
 */
export const exportDataTask = defineTask({
  name: 'export-data',
  params: exportDataParams,
  result: exportDataResult,
  notifies: true,
  monetization: EXPORT_MONETIZATION,
  run: async (context, { format }) => {
    await context.sleep(200);
    context.charge({ ...EXPORT_MONETIZATION, amount: 1 });
    return { url: `${FILES}/exports/${context.taskId}.${format}`, format };
  },
});

/** Every demo task, the default `tasks` of the reference service. */
export const demoTasks: readonly AnyTaskDefinition[] = [
  echoTask,
  renderVideoTask,
  generateImagesTask,
  translateTextTask,
  failingTask,
  slowReportTask,
  exportDataTask,
];

/** The schemas of the demo tasks, by name, for a client typed end to end (`createTaskClient({ tasks })`). */
export const demoTaskSchemas = {
  echo: { params: echoParams, result: echoResult },
  'render-video': {
    params: renderVideoParams,
    result: renderVideoResult,
    events: renderVideoEvents,
  },
  'generate-images': { params: generateImagesParams, result: generateImagesResult },
  'translate-text': { params: translateTextParams, result: translateTextResult },
  'failing-task': { params: failingTaskParams },
  'slow-report': { params: slowReportParams, result: slowReportResult },
  'export-data': { params: exportDataParams, result: exportDataResult },
} satisfies TaskSchemas;
