/* global setTimeout, URL -- Node globals */
// What the consumer test's browser checks share: waiting, reading tables and records, and
// watching a page for problems. Everything on the page is found by role and accessible name.

/** The longest wait for any one thing on the page. */
export const WAIT_MS = 15_000;
/** The demo service's tokens (src/reference/demo-tasks.ts), to read the records back. */
export const SERVICE_HEADERS = {
  authorization: 'Bearer demo-user-token',
  'x-app-authorization': 'Bearer demo-client-token',
};
/** How the page formats figures: the browser runs in en-US, and the table shows up to 4 decimals. */
export const tableNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
export const creditNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function formatCredits(credits) {
  return `${creditNumber.format(credits)} ${credits === 1 ? 'credit' : 'credits'}`;
}

export function check(condition, message) {
  if (!condition) throw new Error(message);
}

export function same(actual, expected) {
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** Waits until `read()` gives a value that `accept` takes; returns it, or throws with the last one. */
export async function waitFor(what, read, accept) {
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
export async function readTable(table) {
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
export function expectedUsageRows(usage) {
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
export async function readRecord(context, baseUrl, task, id) {
  const response = await context.request.get(
    new URL(`taskwire/workflows/${task}/${encodeURIComponent(id)}/result`, baseUrl).href,
    { headers: SERVICE_HEADERS },
  );
  check(response.ok(), `Get Result of ${task} ${id} answered ${response.status()}.`);
  return (await response.json()).response;
}

/** Asks the service for the price of `params`, as a second opinion on what the page shows. */
export async function askOptions(context, baseUrl, task, params) {
  const response = await context.request.post(
    new URL(`taskwire/workflows/${task}/options`, baseUrl).href,
    { headers: SERVICE_HEADERS, data: { params } },
  );
  check(response.ok(), `Options of ${task} answered ${response.status()}.`);
  return (await response.json()).response;
}

/** Checks a usage table against the record's usage; returns the rows it saw. */
export async function checkUsageTable(region, caption, usage) {
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

/** Waits until a progress bar says its task ended; throws when it failed. */
export async function waitForEnd(region, barName) {
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
 * Collects what a page reports that a well-behaved app never does: page errors, console errors and
 * warnings, failed requests and error answers. Returns the list, filled as the page runs.
 */
export function watchPage(page) {
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    // The client aborts its own requests on purpose (the stream once its final event is read), and
    // a reload cancels what the page had in flight.
    const reason = request.failure()?.errorText;
    if (reason !== 'net::ERR_ABORTED')
      problems.push(`request failed: ${request.method()} ${request.url()}: ${reason}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.push(`${response.status()} for ${response.request().method()} ${response.url()}`);
  });
  return problems;
}

/** Is `request` a POST to `endpoint` (`submit`, `stream`, …) of `task` on the mounted service? */
export function isPostTo(task, endpoint, request) {
  return (
    request.method() === 'POST' &&
    new URL(request.url()).pathname === `/taskwire/workflows/${task}/${endpoint}`
  );
}
