/* global window, document, MutationObserver -- in page callbacks, which run in the browser */
// A paid task outlives the page (docs/protocol.md, "The hooks"): the consumer app records its
// render in a journal (localStorage) under a resumeKey. This check starts a render, reloads the
// page mid-stream, and expects the reloaded page to take the task up again: running from its
// first render (never "Not started" or streaming again), the completed result and the usage the
// service charged, and exactly one POST of the task in the page's whole life.
import { PAGE, RENDER_FRAMES } from './consumer-app.mjs';
import {
  check,
  checkUsageTable,
  isPostTo,
  readRecord,
  waitFor,
  waitForEnd,
  WAIT_MS,
  watchPage,
} from './page-checks.mjs';

/**
 * Runs in the page before its scripts, on every load: notes each `aria-valuetext` the render bar
 * takes, from the first one rendered, in `window.taskwireRenderTexts`.
 */
function noteRenderBarTexts(barName) {
  const texts = [];
  window.taskwireRenderTexts = texts;
  const note = () => {
    for (const bar of document.querySelectorAll('[role="progressbar"]')) {
      const name = (bar.getAttribute('aria-labelledby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim();
      const text = bar.getAttribute('aria-valuetext');
      if (name === barName && text !== null && texts.at(-1) !== text) texts.push(text);
    }
  };
  new MutationObserver(note).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['aria-valuetext'],
  });
}

/** The bar's percentage at which the page is reloaded: well inside the 2 s render. */
const RELOAD_AT_PERCENT = 20;

/**
 * Starts a render in a page of a fresh context (an empty journal), reloads it mid-stream and checks
 * what comes back.
 */
export async function checkReloadMidStream({ browser, url, log }) {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const problems = watchPage(page);
  const posts = [];
  page.on('request', (request) => {
    if (isPostTo('render-video', 'stream', request) || isPostTo('render-video', 'submit', request))
      posts.push(request.url());
  });
  await page.addInitScript(noteRenderBarTexts, PAGE.renderProgress);
  await page.goto(url);

  const render = page.getByRole('region', { name: PAGE.renderRegion });
  const bar = render.getByRole('progressbar', { name: PAGE.renderProgress });
  const streamAnswer = page.waitForResponse((response) =>
    isPostTo('render-video', 'stream', response.request()),
  );
  await render.getByRole('button', { name: PAGE.renderButton }).click();
  const taskId = (await streamAnswer).headers()['x-task-id'];
  check(typeof taskId === 'string', 'The stream answered no x-task-id.');
  const percentBefore = await waitFor(
    `the render bar to pass ${RELOAD_AT_PERCENT}%`,
    async () => Number(await bar.getAttribute('aria-valuenow')),
    (value) => value >= RELOAD_AT_PERCENT,
  );
  check(percentBefore < 100, 'The render ended before the page could be reloaded.');

  await page.reload();
  await waitForEnd(render, PAGE.renderProgress);
  const texts = await page.evaluate(() => window.taskwireRenderTexts);
  // Recovering from its first render, and shown as running while Get Result answers (never as
  // "Not started", never as reconnecting: docs/protocol.md, "The hooks").
  check(
    texts.length > 0 &&
      texts[0] !== 'Not started' &&
      !texts.some((text) => text.startsWith('Reconnecting')) &&
      texts.at(-1) === 'Completed',
    `After the reload the render bar said ${JSON.stringify(texts)}: not running from its ` +
      'first render through to Completed.',
  );

  const record = await readRecord(context, url, 'render-video', taskId);
  check(record.status === 'COMPLETED', `The service says render-video is ${record.status}.`);
  await render
    .getByRole('status')
    .filter({ hasText: `Rendered ${RENDER_FRAMES} frames` })
    .waitFor();
  const rows = await checkUsageTable(render, PAGE.renderUsage, record.usage);
  check(
    posts.length === 1,
    `The page posted render-video ${posts.length} times over the reload: ${posts.join(', ')}.`,
  );
  check(problems.length === 0, `The reloaded page reported problems:\n${problems.join('\n')}`);
  log(
    `✓ reload at ${percentBefore}% of render-video ${taskId}: the page said ${texts.join(' → ')}, ` +
      `showed the result and the usage ${JSON.stringify(rows)}, with one POST in all`,
  );
  await context.close();
}
