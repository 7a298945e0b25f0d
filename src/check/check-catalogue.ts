/**
 * Every check `taskwire-check` runs, in the order it reports them: an id, a title that states the
 * rule as a sentence, the heading of docs/protocol.md that holds the rule, and its level: whether
 * the client relies on the rule (a failure fails the run) or it is taskwire's own contract beyond
 * the interface document (a failure is a warning). The guide (docs/checking-your-service.md)
 * explains each one under its id.
 */

/**
 * How much a check's rule matters: `required`, the client and hooks rely on it, so breaking it
 * fails the run; `contract`, taskwire's own contract beyond the interface document, which the
 * client works without, so breaking it warns.
 */
export type CheckLevel = 'required' | 'contract';

/** The heading of docs/protocol.md a check's rule lives under, and its anchor. */
const HEADINGS = {
  paths: ['Paths and names', 'paths-and-names'],
  headers: ['Headers and tokens', 'headers-and-tokens'],
  errors: ['Error bodies', 'error-bodies'],
  records: ['Records', 'records'],
  submit: ['Submit', 'submit'],
  idempotency: ['Idempotency', 'idempotency'],
  result: ['Get Result', 'get-result'],
  streams: ['Streams', 'streams'],
  execute: ['Execute', 'execute'],
  options: ['Options', 'options'],
  usage: ['Usage and credits', 'usage-and-credits'],
  resumable: ['Resumable streams (0.4)', 'resumable-streams-04'],
} as const;

type HeadingKey = keyof typeof HEADINGS;

function check<const Id extends string>(
  id: Id,
  title: string,
  heading: HeadingKey,
  level: CheckLevel = 'required',
) {
  const [name, anchor] = HEADINGS[heading];
  return { id, title, heading: name, rule: `docs/protocol.md#${anchor}`, level };
}

/** The checks, in the order they are reported. */
export const CHECKS = [
  check('auth.no-user-token', 'Without Authorization: 401 UNAUTHENTICATED', 'headers'),
  check('auth.no-client-token', 'Without x-app-authorization: 401 UNAUTHENTICATED', 'headers'),
  check('auth.malformed-token', 'Authorization that is not Bearer <token>: 401', 'headers'),
  check('auth.unknown-token', 'An unknown user token: 401 UNAUTHENTICATED', 'headers'),
  check('errors.body', 'Refusals carry the JSON error body', 'errors'),
  check('submit.answer', 'Submit answers { id, status: ACCEPTED }', 'submit'),
  check('submit.status', 'Submit answers 202 Accepted', 'submit', 'contract'),
  check('submit.location', "Submit's Location is the task's Get Result path", 'submit', 'contract'),
  check('idempotency.same-key', 'The same Idempotency-Key answers the same id', 'idempotency'),
  check('idempotency.other-body', 'The same key with another body: 422', 'idempotency'),
  check('result.record', 'Get Result answers a task record', 'records'),
  check('result.states', 'The task moves through the four states and ends', 'records'),
  check('result.retry-after', 'Retry-After is whole seconds, at least 1', 'result'),
  check('result.unknown-id', 'An unknown id: 404 RESULT_NOT_FOUND', 'result'),
  check(
    'result.malformed-id',
    "An id not of the service's shape: 404 RESULT_NOT_FOUND",
    'result',
    'contract',
  ),
  check('result.other-user', "Another user's id is answered like an unknown id", 'headers'),
  check('stream.headers', 'Stream answers 200 text/event-stream, not cached', 'streams'),
  check('stream.task-id', 'Stream sends x-task-id, readable with Get Result', 'streams'),
  check('stream.framing', 'Each stream message is data: <one JSON event>', 'streams'),
  check('stream.event-ids', 'Custom events carry the ids Get Result lists', 'streams'),
  check('stream.final-event', 'The stream ends with its final event, then closes', 'streams'),
  check('stream.live', 'The stream sends each message as it comes, not all at the end', 'streams'),
  check('stream.keep-alive', 'A keep-alive comment at least every 15 s of silence', 'streams'),
  check('stream.refusal-json', 'A stream refused before it starts answers JSON', 'streams'),
  check(
    'events.after-position',
    'An events read after a position repeats nothing and misses nothing',
    'resumable',
  ),
  check('events.other-user', "Another user's events read: 404 RESULT_NOT_FOUND", 'resumable'),
  check(
    'events.final-event',
    'The events read ends with the final event, then closes',
    'resumable',
  ),
  check(
    'events.follow',
    "The multiplexed read sends a task's messages at their positions",
    'resumable',
  ),
  check('cors.preflight', 'A CORS preflight needs no token and allows the headers', 'headers'),
  check('cors.expose-headers', 'Answers expose x-task-id, location, retry-after', 'headers'),
  check('execute.answer', 'Execute answers 200 with the outcome', 'execute'),
  check('execute.deadline', 'Execute answers within its 20 s limit', 'execute'),
  check('execute.failed', "A failed task's Execute answers 200 with status FAILED", 'execute'),
  check('options.answer', 'Options answers a quote, a preflight answer or {}', 'options'),
  check('options.runs-nothing', 'Options starts no task', 'options'),
  check('usage.arithmetic', 'Usage adds up: price × amount, total of what was charged', 'usage'),
  check('usage.in-outcomes', 'task.completed and Execute carry the usage Get Result has', 'usage'),
  check('unknown.task', 'An unknown task: 404 TASK_NOT_FOUND', 'errors'),
  check('unknown.path', 'A path that is no endpoint: 404 NOT_FOUND', 'paths'),
] as const;

/** The id of one check, such as `stream.keep-alive`. */
export type CheckId = (typeof CHECKS)[number]['id'];
