/**
 * CORS (docs/protocol.md, "Headers and tokens"): a browser on the app's origin first asks each
 * endpoint with a preflight that carries no token, and then reads only the headers an answer
 * exposes; without `x-task-id` a broken stream cannot be recovered, without `retry-after` polling
 * cannot see the service's hint.
 */
import { describeAnswer, type CheckRun } from './check-run.js';

/** The headers every answer must expose. */
const EXPOSED = ['x-task-id', 'location', 'retry-after'];

function listOf(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');
}

/** Why the CORS checks do not apply, when the app's origin is the service's own. */
function sameOrigin(run: CheckRun): string | undefined {
  return run.options.origin === new URL(run.options.baseUrl).origin
    ? `the app's origin ${run.options.origin} is the service's: a browser sends no preflight and reads every header (give --origin to check another)`
    : undefined;
}

/** `cors.preflight`: each endpoint's preflight, without a token, allows the request the client sends. */
export async function checkPreflights(run: CheckRun): Promise<void> {
  const same = sameOrigin(run);
  if (same !== undefined) {
    run.skip('cors.preflight', same);
    return;
  }
  const origin = run.options.origin;
  // The headers given go on each request; a browser names them in the preflight, but the cookie,
  // which it adds by itself.
  const given = run.options.headers.map(([name]) => name).filter((name) => name !== 'cookie');
  const post = ['authorization', 'x-app-authorization', 'content-type', ...given];
  const endpoints = [
    { method: 'POST', path: run.taskPath('submit'), headers: [...post, 'idempotency-key'] },
    { method: 'POST', path: run.taskPath('stream'), headers: post },
    { method: 'POST', path: run.taskPath('execute'), headers: post },
    { method: 'POST', path: run.taskPath('options'), headers: post },
    {
      method: 'GET',
      path: run.taskPath('result', { id: run.unknownId() }),
      headers: ['authorization', 'x-app-authorization', ...given],
    },
  ];
  for (const endpoint of endpoints) {
    const answer = await run.send({
      method: 'OPTIONS',
      path: endpoint.path,
      user: 'none',
      client: false,
      headers: {
        origin,
        'access-control-request-method': endpoint.method,
        'access-control-request-headers': endpoint.headers.join(','),
      },
    });
    const allowOrigin = answer.headers.get('access-control-allow-origin');
    // Access-Control-Allow-Methods is not read: GET and POST, the only methods of the protocol,
    // are CORS-safelisted, and a browser sends them whatever that header lists.
    const allowed = listOf(answer.headers.get('access-control-allow-headers'));
    // `*` allows any header but Authorization, which must be named (Fetch standard, CORS).
    const missing = endpoint.headers.filter(
      (header) =>
        !allowed.includes(header) && !(allowed.includes('*') && header !== 'authorization'),
    );
    const problem =
      answer.status < 200 || answer.status > 299
        ? `the preflight was answered ${describeAnswer(answer)}`
        : allowOrigin !== '*' && allowOrigin !== origin
          ? `Access-Control-Allow-Origin: ${allowOrigin ?? '(none)'} for the origin ${origin}`
          : missing.length > 0
            ? `Access-Control-Allow-Headers: ${answer.headers.get('access-control-allow-headers') ?? '(none)'}, without ${missing.join(', ')}`
            : undefined;
    if (problem) {
      run.fail('cors.preflight', {
        expected: `2xx with Access-Control-Allow-Origin ${origin} (or *), Allow-Headers ${endpoint.headers.join(', ')}; no token needed`,
        observed: `OPTIONS ${endpoint.path}: ${problem}`,
        exchange: answer.exchange,
      });
      return;
    }
  }
  run.pass('cors.preflight', `${endpoints.length} endpoints, origin ${origin}`);
}

/** `cors.expose-headers`: every answer of the run (preflights aside) lets the origin read what it needs. */
export function checkExposedHeaders(run: CheckRun): void {
  const same = sameOrigin(run);
  if (same !== undefined) {
    run.skip('cors.expose-headers', same);
    return;
  }
  const origin = run.options.origin;
  const answered = run.recorder.exchanges.filter(
    (exchange) => exchange.request.method !== 'OPTIONS' && exchange.headers !== undefined,
  );
  for (const exchange of answered) {
    const headers = exchange.headers!;
    const allowOrigin = headers.get('access-control-allow-origin');
    const exposed = listOf(headers.get('access-control-expose-headers'));
    const missing = EXPOSED.filter((name) => !exposed.includes(name) && !exposed.includes('*'));
    const problem =
      allowOrigin !== '*' && allowOrigin !== origin
        ? `Access-Control-Allow-Origin: ${allowOrigin ?? '(none)'}, so a page on ${origin} cannot read the answer`
        : missing.length > 0
          ? `Access-Control-Expose-Headers: ${headers.get('access-control-expose-headers') ?? '(none)'}, without ${missing.join(', ')}`
          : undefined;
    if (problem) {
      run.fail('cors.expose-headers', {
        expected: `Access-Control-Allow-Origin ${origin} (or *) and Access-Control-Expose-Headers: ${EXPOSED.join(', ')} on every answer`,
        observed: `${exchange.request.method} ${new URL(exchange.request.url).pathname} (${exchange.status}): ${problem}`,
        exchange,
      });
      return;
    }
  }
  run.pass('cors.expose-headers', `${answered.length} answers`);
}
