/* global fetch, setTimeout -- Node globals */
// `next dev` evaluates a route module again after each edit; the guide keeps the reference service
// on globalThis so that one service (its tasks and timers) lives as long as the dev server
// (docs/your-own-service.md, "The reference service in a Next.js app"). This check submits a task
// through the mounted route, edits the route file the way a developer would, waits until the dev
// server has evaluated the edited module, and reads the task back: a new service would answer 404.
import { appendFileSync } from 'node:fs';
import { WAIT_MS } from '../consumer/page-checks.mjs';

/** The demo service's tokens, which the mounted reference service takes. */
const HEADERS = {
  authorization: 'Bearer demo-user-token',
  'x-app-authorization': 'Bearer demo-client-token',
  'content-type': 'application/json',
};
/** What the edited module prints when the dev server evaluates it. */
const EVALUATED = 'taskwire route evaluated after the edit';

/** Submits a task at `url` (the mounted service), edits `routeFile`, and reads the task back. */
export async function checkServiceKeptAcrossEdit({ url, routeFile, output }) {
  const submitted = await fetch(`${url}/workflows/render-video/submit`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ params: { frames: 5, frameMs: 100 } }),
  });
  if (submitted.status !== 202)
    throw new Error(`Submit through next dev answered ${submitted.status}.`);
  const { id } = (await submitted.json()).response;
  const read = () =>
    fetch(`${url}/workflows/render-video/${encodeURIComponent(id)}/result`, { headers: HEADERS });
  const before = await read();
  if (before.status !== 200)
    throw new Error(`Get Result before the edit answered ${before.status}.`);

  appendFileSync(routeFile, `\nconsole.log('${EVALUATED}');\n`);
  // The dev server takes the edit up on a request after its watcher saw the file change.
  const until = Date.now() + WAIT_MS * 4;
  while (!output.join('').includes(EVALUATED)) {
    if (Date.now() > until)
      throw new Error(`next dev never evaluated the edited route:\n${output.join('')}`);
    await read();
    await new Promise((resolveWait) => setTimeout(resolveWait, 250));
  }
  const after = await read();
  if (after.status !== 200) {
    throw new Error(
      `After the edit, Get Result of the task submitted before it answered ${after.status}: ` +
        "a new service, with none of the old one's tasks.",
    );
  }
  const record = (await after.json()).response;
  return `task ${id} submitted before the edit read back after it (${record.status})`;
}
