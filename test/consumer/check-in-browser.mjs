/* global setTimeout, URL -- Node globals, and in page callbacks, which run in the browser: */
/* global window, document, MutationObserver */
// The consumer test's browser half: the built app, served by `vite preview` with the reference
// service mounted by `taskwire/vite`, driven in headless Chromium. Everything is found the way a
// user (or a screen reader) finds it: regions, buttons, progress bars, tables and status messages
// by role and accessible name, never by the components' class names. Figures on the page are
// compared with what the service answered: the Options answer the page received, and each task's
// record read back from the service by id.
import { chromium } from 'playwright';
import { CHROMIUM_ARGS } from '../../scripts/ensure-chromium.mjs';
import { PAGE, RENDER_FRAMES, TARGET_LANGUAGE, TRANSLATE_TEXT } from './consumer-app.mjs';

/** The longest wait for any one thing on the page. */
const WAIT_MS = 15_000;
/** The demo service's tokens (src/reference/demo-tasks.ts), to read the records back. */
const SERVICE_HEADERS = {
  authorization: 'Bearer demo-user-token',
  'x-app-authorization': 'Bearer demo-client-token',
};
/** How the page formats figures: the browser runs in en-US, and the table shows up to 4 decimals. */
const tableNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
const creditNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

function formatCredits(credits) {
  return `${creditNumber.format(credits)} ${credits === 1 ? 'credit' : 'credits'}`;
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

function same(actual, expected) {
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** Waits until `read()` gives a value that `accept` takes; returns it, or throws with the last one. */
async function waitFor(what, read, accept) {
  const deadline = Date.now() + WAIT_MS;
  let value;
  for (;;) {
    value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`Waited ${WAIT_MS} ms for ${what}; last saw ${value}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The rows of a table as `[row header, ...cells]`, and its column headers. */
async function readTable(table) {
  const columns = await table.getByRole('columnheader').allInnerTexts();
  const rows = [];
  for (const row of await table.getByRole('row').all()) {
    const header = await row.getByRole('rowheader').allInnerTexts();
    const cells = await row.getByRole('cell').allInnerTexts();
    if (header.length + cells.length > 0)
      rows.push([...header, ...cells].map((text) => text.trim()));
  }
  return { columns, rows };
}

/** The rows a UsageBreakdown must show for `usage`: one per tool, then the total. */
function expectedUsageRows(usage) {
  return [
    ...usage.details.map((detail) => [
      detail.toolId,
      tableNumber.format(detail.price),
      tableNumber.format(detail.amount),
      detail.failed ? 'Not charged (failed)' : tableNumber.format(detail.credits),
    ]),
    ['Total', tableNumber.format(usage.credits)],
  ];
}

/** Reads a task's record from the service, as a second opinion on what the page shows. */
async function readRecord(context, baseUrl, task, id) {
  const response = await context.request.get(
    new URL(`taskwire/workflows/${task}/${encodeURIComponent(id)}/result`, baseUrl).href,
    { headers: SERVICE_HEADERS },
  );
  check(response.ok(), `Get Result of ${task} ${id} answered ${response.status()}.`);
  return (await response.json()).response;
}

/** Checks a usage table against the record's usage; returns the rows it saw. */
async function checkUsageTable(region, caption, usage) {
  const table = region.getByRole('table', { name: caption });
  await table.waitFor({ timeout: WAIT_MS });
  const { columns, rows } = await readTable(table);
  check(
    same(columns, ['Tool', 'Price', 'Amount', 'Credits']),
    `The ${caption} table has the columns ${JSON.stringify(columns)}.`,
  );
  const expected = expectedUsageRows(usage);
  check(
    same(rows, expected),
    `The ${caption} table shows ${JSON.stringify(rows)}; the service's record says ${JSON.stringify(expected)}.`,
  );
  check(
    (await region.getByRole('alert').count()) === 0,
    `The ${caption} region shows an alert: ${await region.getByRole('alert').allInnerTexts()}.`,
  );
  return rows;
}

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

/** Waits until a progress bar says its task ended; throws when it failed. */
async function waitForEnd(region, barName) {
  const bar = region.getByRole('progressbar', { name: barName });
  const text = await waitFor(
    `the ${barName} bar to say Completed`,
    () => bar.getAttribute('aria-valuetext'),
    (value) => value === 'Completed' || value === 'Failed',
  );
  if (text !== 'Completed') {
    const alerts = await region.getByRole('alert').allInnerTexts();
    throw new Error(`The ${barName} bar says ${text}: ${alerts.join('; ')}`);
  }
}

/**
 * Opens the app at `url` in Chromium and checks the cost preview, a submitted and polled
 * translation, a streamed render and their usage tables. `onBrowser` receives the browser as
 * soon as it runs, so the caller can close it whatever happens. Returns the timings of its phases.
 */
export async function checkInBrowser({ url, executablePath, log, onBrowser }) {
  const timings = {};
  let started = Date.now();
  const browser = await chromium.launch({
    executablePath,
    args: [...CHROMIUM_ARGS],
    // The runner closes the browser itself on a signal, before it removes its folder.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  onBrowser(browser);
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    // The client aborts its own requests on purpose: the stream once its final event is read.
    const reason = request.failure()?.errorText;
    if (reason !== 'net::ERR_ABORTED')
      problems.push(`request failed: ${request.method()} ${request.url()}: ${reason}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.push(`${response.status()} for ${response.request().method()} ${response.url()}`);
  });
  const isPost = (task, endpoint) => (response) =>
    response.request().method() === 'POST' &&
    new URL(response.url()).pathname === `/taskwire/workflows/${task}/${endpoint}`;
  timings['launch Chromium'] = Date.now() - started;

  // The cost preview, against the Options answer the page received.
  started = Date.now();
  const optionsResponse = page.waitForResponse(isPost('translate-text', 'options'));
  await page.goto(url);
  const optionsAnswer = await (await optionsResponse).json();
  const quote = optionsAnswer.response;
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
  const translateId = (await (await submitResponse).json()).response.id;
  const renderId = (await streamResponse).headers()['x-task-id'];
  check(typeof translateId === 'string', 'Submit answered no task id.');
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
  return timings;
}
