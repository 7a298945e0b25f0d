/* global -- in page callbacks, which run in the browser: */
/* global window, document, MutationObserver */
// The consumer test's browser half: the built app, served by `vite preview` with the reference
// service mounted by `taskwire/vite`, driven in headless Chromium. Everything is found the way a
// user (or a screen reader) finds it: regions, buttons, progress bars, tables and status messages
// by role and accessible name, never by the components' class names. Figures on the page are
// compared with what the service answered: the Options answer the page received, and each task's
// record read back from the service by id. Then a render is reloaded mid-stream (check-reload.mjs), and
// two tabs watch one task with one poll (check-tabs.mjs).
import { PAGE, RENDER_FRAMES, TARGET_LANGUAGE, TRANSLATE_TEXT } from './consumer-app.mjs';
import { checkReloadMidStream } from './check-reload.mjs';
import { checkTwoTabsOnePoll } from './check-tabs.mjs';
import { launchChromium } from './test-run.mjs';
import {
  askOptions,
  check,
  checkUsageTable,
  creditNumber,
  formatCredits,
  isPostTo,
  readRecord,
  same,
  waitForEnd,
  WAIT_MS,
  watchPage,
} from './page-checks.mjs';

/** Records every `aria-valuenow` each progress bar takes, by the bar's accessible name. */
function recordProgressValues() {
  const seen = {};
  window.taskwireProgressSeen = seen;
  const note = (bar) => {
    const name = (bar.getAttribute('aria-labelledby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim();
    const value = bar.getAttribute('aria-valuenow');
    if (value !== null) (seen[name] ??= []).push(Number(value));
  };
  new MutationObserver((mutations) => {
    for (const mutation of mutations)
      if (mutation.target.getAttribute('role') === 'progressbar') note(mutation.target);
  }).observe(document.body, {
    subtree: true,
    attributes: true,
    attributeFilter: ['aria-valuenow'],
  });
}

/**
 * Opens the app at `url` in Chromium and checks the cost preview, a submitted and polled
 * translation, a streamed render and their usage tables. `onBrowser` receives the browser as
 * soon as it runs, so the caller can close it whatever happens. Returns the timings of its phases.
 */
export async function checkInBrowser({ url, executablePath, log, onBrowser }) {
  const timings = {};
  let started = Date.now();
  const browser = await launchChromium(executablePath);
  onBrowser(browser);
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const problems = watchPage(page);
  const isPost = (task, endpoint) => (response) => isPostTo(task, endpoint, response.request());
  timings['launch Chromium'] = Date.now() - started;

  // The cost preview, against the service's Options answer for the page's params. (The quote is
  // asked again rather than read from the page's answer: Chromium may drop a body it has handed
  // over before Playwright asks for it, which made this check flaky under load.)
  started = Date.now();
  const optionsResponse = page.waitForResponse(isPost('translate-text', 'options'));
  await page.goto(url);
  check((await optionsResponse).ok(), 'The page asked for a price and got an error answer.');
  const quote = await askOptions(context, url, 'translate-text', {
    text: TRANSLATE_TEXT,
    targetLanguage: TARGET_LANGUAGE,
  });
  const expectedUnits = Math.ceil(TRANSLATE_TEXT.length / 100);
  check(
    same(quote, {
      monetization: { toolId: 'translate' },
      usageAmount: expectedUnits,
      credits: expectedUnits,
    }),
    `The Options answer for ${TRANSLATE_TEXT.length} characters is ${JSON.stringify(quote)}, not ${expectedUnits} credits of translate.`,
  );
  const translate = page.getByRole('region', { name: PAGE.translateRegion });
  const price = formatCredits(quote.credits);
  await translate.getByText(price, { exact: true }).waitFor();
  const terms = await translate.getByRole('term').allInnerTexts();
  const definitions = await translate.getByRole('definition').allInnerTexts();
  check(
    same(terms, ['Tool', 'Usage']) &&
      same(definitions, [quote.monetization.toolId, creditNumber.format(quote.usageAmount)]),
    `The cost preview details are ${JSON.stringify(terms)} = ${JSON.stringify(definitions)}.`,
  );
  log(
    `✓ cost preview shows "${price}", tool ${definitions[0]}, usage ${definitions[1]}: the Options answer ${JSON.stringify(quote)}`,
  );
  timings['load the page and price'] = Date.now() - started;

  // Submit (then poll) a translation and stream a render, side by side.
  started = Date.now();
  await page.evaluate(recordProgressValues);
  const render = page.getByRole('region', { name: PAGE.renderRegion });
  const submitResponse = page.waitForResponse(isPost('translate-text', 'submit'));
  const streamResponse = page.waitForResponse(isPost('render-video', 'stream'));
  const translateButton = translate.getByRole('button', { name: PAGE.translateButton });
  check(await translateButton.isEnabled(), 'The Translate button is disabled with a price shown.');
  await translateButton.click();
  await render.getByRole('button', { name: PAGE.renderButton }).click();
  // The id is read from Submit's Location header, not its body, for the reason given at the quote.
  const location = (await submitResponse).headers().location ?? '';
  const translateId = /\/workflows\/translate-text\/([^/?#]+)\/result/.exec(location)?.[1];
  const renderId = (await streamResponse).headers()['x-task-id'];
  check(
    typeof translateId === 'string',
    `Submit answered no task id in its Location (${location}).`,
  );
  check(typeof renderId === 'string', 'The stream answered no x-task-id.');
  log(`  submitted translate-text ${translateId}; streaming render-video ${renderId}`);
  await Promise.all([
    waitForEnd(translate, PAGE.translateProgress),
    waitForEnd(render, PAGE.renderProgress),
  ]);
  timings['run both tasks'] = Date.now() - started;

  started = Date.now();
  const seen = await page.evaluate(() => window.taskwireProgressSeen);
  const renderValues = seen[PAGE.renderProgress] ?? [];
  const between = renderValues.filter((value) => value > 0 && value < 100);
  check(
    between.length >= 3 &&
      renderValues.every((value, index) => index === 0 || value >= renderValues[index - 1]),
    `The render bar took the values ${renderValues.join(', ')}: not a rise through 0–100.`,
  );
  check(renderValues.at(-1) === 100, `The render bar ended at ${renderValues.at(-1)}, not 100.`);
  log(`✓ render-video streamed to completion; its bar rose through ${renderValues.join(', ')}`);

  const renderRecord = await readRecord(context, url, 'render-video', renderId);
  check(
    renderRecord.status === 'COMPLETED',
    `The service says render-video is ${renderRecord.status}.`,
  );
  check(
    renderRecord.result?.frames === RENDER_FRAMES,
    `render-video rendered ${renderRecord.result?.frames} frames.`,
  );
  const renderStatus = `Rendered ${RENDER_FRAMES} frames; ${RENDER_FRAMES} frame events`;
  await render.getByRole('status').filter({ hasText: renderStatus }).waitFor();
  log(`✓ the typed result and custom events reached the page: "${renderStatus}"`);
  const renderRows = await checkUsageTable(render, PAGE.renderUsage, renderRecord.usage);
  check(renderRecord.usage.credits > 0, 'render-video charged nothing.');
  log(
    `✓ usage table "${PAGE.renderUsage}" matches the service's record: ${JSON.stringify(renderRows)}`,
  );

  const translateRecord = await readRecord(context, url, 'translate-text', translateId);
  check(
    translateRecord.status === 'COMPLETED',
    `The service says translate-text is ${translateRecord.status}.`,
  );
  log(`✓ translate-text submitted and polled to completion (bar says Completed)`);
  const translated = `Translated into ${TARGET_LANGUAGE}`;
  check(
    translateRecord.result?.targetLanguage === TARGET_LANGUAGE,
    'translate-text returned another language.',
  );
  await translate.getByRole('status').filter({ hasText: translated }).waitFor();
  const translateRows = await checkUsageTable(
    translate,
    PAGE.translateUsage,
    translateRecord.usage,
  );
  check(
    translateRecord.usage.credits === quote.credits,
    `translate-text charged ${translateRecord.usage.credits} credits; Options quoted ${quote.credits}.`,
  );
  const asQuoted = `Charged as quoted: ${formatCredits(quote.credits)}.`;
  await translate.getByText(asQuoted, { exact: true }).waitFor();
  log(
    `✓ usage table "${PAGE.translateUsage}" matches the record, total = quote: ${JSON.stringify(translateRows)}; "${asQuoted}"`,
  );

  check(problems.length === 0, `The page reported problems:\n${problems.join('\n')}`);
  log('✓ no page error, console error or warning, failed request or error answer');
  timings['check the results'] = Date.now() - started;

  started = Date.now();
  await checkReloadMidStream({ browser, url, log });
  timings['reload mid-stream'] = Date.now() - started;

  started = Date.now();
  await checkTwoTabsOnePoll({ browser, url, log });
  timings['two tabs, one poll'] = Date.now() - started;
  return timings;
}
