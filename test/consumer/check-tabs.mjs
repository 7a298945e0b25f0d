/* global URL -- a Node global */
// One task watched in two tabs is polled by one of them (docs/protocol.md, "The hooks"):
// two pages of one origin in one browser context (so they share localStorage and
// BroadcastChannel), each with its own provider, QueryClient and journal. Page A submits a render
// and polls it; page B opens, finds the task in the journal and shows it from A's records without a
// request of its own. When A closes, B takes the poll over and reaches the end. One POST in all.
// Then two users on one origin (the app's ?user= is its client scope): Bob's page, on the same
// localStorage and BroadcastChannel as Alice's, never finds, shows or polls Alice's task.
import { BACKGROUND_FRAMES, PAGE } from './consumer-app.mjs';
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

/** The path of Get Result for a render, with the task id. */
const RESULT_PATH = /^\/taskwire\/workflows\/render-video\/([^/]+)\/result$/;

/** A page of `context` at `url`, with its problems watched and its Get Result requests counted. */
async function openTab(context, url) {
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const tab = { page, problems: watchPage(page), polls: 0, posts: 0, polledIds: new Set() };
  page.on('request', (request) => {
    const polled = RESULT_PATH.exec(new URL(request.url()).pathname);
    if (request.method() === 'GET' && polled) {
      tab.polls += 1;
      tab.polledIds.add(decodeURIComponent(polled[1]));
    }
    if (isPostTo('render-video', 'submit', request)) tab.posts += 1;
  });
  await page.goto(url);
  return tab;
}

const region = (tab) => tab.page.getByRole('region', { name: PAGE.backgroundRegion });
const percentOf = async (tab) =>
  Number(
    await region(tab)
      .getByRole('progressbar', { name: PAGE.backgroundProgress })
      .getAttribute('aria-valuenow'),
  );

/** Checks that two tabs on one task make one tab's Get Result requests, and hand the poll over. */
export async function checkTwoTabsOnePoll({ browser, url, log }) {
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    const a = await openTab(context, url);
    await region(a).getByRole('button', { name: PAGE.backgroundButton }).click();
    // The id as the page polls it (Chromium may drop a body before Playwright can read it).
    await waitFor(
      'tab A to poll the task',
      () => a.polledIds.size,
      (size) => size > 0,
    );
    const [taskId] = a.polledIds;

    const b = await openTab(context, url);
    // B shows the task's progress from A's records: wait for a figure in B, then a later one.
    const first = await waitFor(
      'tab B to show progress',
      () => percentOf(b),
      (value) => value > 0,
    );
    await waitFor(
      'tab B to show more progress',
      () => percentOf(b),
      (value) => value > first,
    );
    const whileBoth = { a: a.polls, b: b.polls };
    check(
      whileBoth.a >= 2 && whileBoth.b <= 1,
      `While both tabs watched the task, A polled ${whileBoth.a} times and B ${whileBoth.b}: ` +
        'not one tab polling for both.',
    );

    // A closes (pagehide): B takes the poll over and reaches the end.
    check((await percentOf(b)) < 100, 'The render ended before tab A could be closed.');
    await a.page.close({ runBeforeUnload: true });
    await waitForEnd(region(b), PAGE.backgroundProgress);
    check(b.polls > whileBoth.b, 'Tab B reached the end without polling after A closed.');
    const record = await readRecord(context, url, 'render-video', taskId);
    check(
      record.status === 'COMPLETED' && record.result?.frames === BACKGROUND_FRAMES,
      `The service says the background render is ${record.status} with ${record.result?.frames} frames.`,
    );
    await checkUsageTable(region(b), PAGE.backgroundUsage, record.usage);
    check(a.posts + b.posts === 1, `The tabs posted the render ${a.posts + b.posts} times.`);
    const polledIds = new Set([...a.polledIds, ...b.polledIds]);
    check(
      polledIds.size === 1,
      `The tabs polled ${polledIds.size} tasks: ${[...polledIds].join(', ')}.`,
    );
    const problems = [...a.problems, ...b.problems];
    check(problems.length === 0, `The tabs reported problems:\n${problems.join('\n')}`);
    log(
      `✓ two tabs on render-video ${taskId}: while both were open A polled ${whileBoth.a} times and ` +
        `B ${whileBoth.b}; after A closed B polled ${b.polls - whileBoth.b} times to the end; one POST`,
    );
  } finally {
    await context.close();
  }
  await checkTwoUsersApart({ browser, url, log });
}

/** The app's page for one user: `?user=` is the client's scope. */
function userUrl(url, user) {
  const address = new URL(url);
  address.searchParams.set('user', user);
  return address.href;
}

/** Checks that two users' pages on one origin (one storage, one channel) see only their own tasks. */
export async function checkTwoUsersApart({ browser, url, log }) {
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    const alice = await openTab(context, userUrl(url, 'alice'));
    await region(alice).getByRole('button', { name: PAGE.backgroundButton }).click();
    await waitFor(
      "Alice's page to poll her task",
      () => alice.polledIds.size,
      (size) => size > 0,
    );
    const [taskId] = alice.polledIds;
    const bob = await openTab(context, userUrl(url, 'bob'));
    // While Alice's task runs on and her page shows it, Bob's page must show nothing of it.
    const first = await waitFor(
      "Alice's page to show progress",
      () => percentOf(alice),
      (value) => value > 0,
    );
    await waitFor(
      "Alice's page to show more progress",
      () => percentOf(alice),
      (value) => value > first,
    );
    const bobButton = region(bob).getByRole('button', { name: PAGE.backgroundButton });
    check(await bobButton.isEnabled(), "Bob's page found Alice's task in the journal.");
    // Bob's bar stays at rest (0) while Alice's shows her task's progress.
    const bobPercent = await percentOf(bob);
    check(bobPercent === 0, `Bob's page shows Alice's progress (${bobPercent}).`);
    check(
      !bob.polledIds.has(taskId) && bob.posts === 0,
      `Bob's page polled ${[...bob.polledIds].join(', ') || 'nothing'} and posted ${bob.posts} times.`,
    );
    const problems = [...alice.problems, ...bob.problems];
    check(problems.length === 0, `The users' pages reported problems:\n${problems.join('\n')}`);
    log(
      `✓ two users on one origin: Alice's render-video ${taskId} never reached Bob's page ` +
        `(no entry, no progress, no poll of it; Bob's page polled ${bob.polls} times)`,
    );
  } finally {
    await context.close();
  }
}
