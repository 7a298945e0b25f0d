/**
 * Services that break one rule each: wrappers of the reference service's `fetch`, each named for
 * the mistake a team's own service or gateway could make, with the check that must catch it and
 * words the failure must hold.
 */
import type { CheckId, CheckOutcome, CheckServiceOptions } from '../../src/check/index.js';
import { CLIENT_TOKEN, OTHER_USER_TOKEN, quietTask, USER_TOKEN } from './check-fixtures.js';

type Send = (request: Request) => Promise<Response>;

/** One broken service. */
export interface BrokenService {
  check: CheckId;
  name: string;
  /** What the check's `observed` must say. */
  observed: RegExp;
  wrap: (send: Send) => Send;
  /** Checks that cannot run once this rule is broken, and are skipped (saying why). */
  skips?: CheckId[];
  /** Other checks the same mistake breaks too. */
  alsoFails?: CheckId[];
  /** What the run needs to see the mistake, such as a short Execute deadline. */
  options?: Partial<CheckServiceOptions>;
  /**
   * `warn` for a rule of taskwire's own contract that the client does not need; defaults to
   * `fail`, a rule the client relies on.
   */
  outcome?: 'fail' | 'warn';
}

const KNOWN_USER_TOKENS = [USER_TOKEN, OTHER_USER_TOKEN];

function pathOf(request: Request): string {
  return new URL(request.url).pathname;
}

const isStream = (request: Request) =>
  request.method === 'POST' && pathOf(request).endsWith('/stream');
const isSubmit = (request: Request) =>
  request.method === 'POST' && pathOf(request).endsWith('/submit');
const isResult = (request: Request) =>
  request.method === 'GET' && pathOf(request).endsWith('/result');

/** The reference service's ids are UUIDs. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The id of a Get Result request. */
const idOf = (request: Request) => decodeURIComponent(pathOf(request).split('/').at(-2) ?? '');

/** Whether the request carries a known user's token and the app's. */
const signedIn = (request: Request) =>
  KNOWN_USER_TOKENS.some((token) => request.headers.get('authorization') === `Bearer ${token}`) &&
  request.headers.get('x-app-authorization') === `Bearer ${CLIENT_TOKEN}`;

function withHeaders(request: Request, changes: Record<string, string | null>): Request {
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return new Request(request, { headers });
}

function headersOf(response: Response, changes: Record<string, string | null> = {}): Headers {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return headers;
}

/** The same answer with its JSON body rewritten by `change`. */
async function rewriteJson(
  response: Response,
  change: (body: Record<string, unknown>) => unknown,
  status = response.status,
): Promise<Response> {
  const body = (await response.json()) as Record<string, unknown>;
  return new Response(JSON.stringify(change(body)), { status, headers: headersOf(response) });
}

/** The same answer with its headers changed. */
function rewriteHeaders(response: Response, changes: Record<string, string | null>): Response {
  return new Response(response.body, {
    status: response.status,
    headers: headersOf(response, changes),
  });
}

/** The same stream with each chunk's text rewritten (the reference service writes one message a chunk). */
function rewriteStream(
  response: Response,
  change: (text: string, index: number) => string,
): Response {
  let index = 0;
  const body = response
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(
      new TransformStream<string, string>({
        transform(text, controller) {
          const changed = change(text, index);
          index += 1;
          if (changed !== '') controller.enqueue(changed);
        },
      }),
    )
    .pipeThrough(new TextEncoderStream());
  return new Response(body, { status: response.status, headers: headersOf(response) });
}

/** Resolves after `ms`, or rejects when `signal` aborts: a service that takes its time. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });
}

/** A task's events read (docs/protocol.md, "Resumable streams (0.4)"). */
const isEventsRead = (request: Request) =>
  request.method === 'GET' && pathOf(request).endsWith('/events');
/** An events read after a position. */
const isReadAfter = (request: Request) =>
  isEventsRead(request) && request.headers.has('last-event-id');

/** The position before `position`, as the reference service writes them (16 digits from 1). */
function positionBefore(position: string): string | null {
  const before = Number(position) - 1;
  return before < 1 ? null : String(before).padStart(16, '0');
}

/** An answer whose body passes every chunk on but never closes: only the reader's cancel ends it. */
function neverClosing(response: Response): Response {
  const reader = response.body!.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (!done) controller.enqueue(value);
      else await new Promise(() => undefined);
    },
  });
  return new Response(body, { status: response.status, headers: headersOf(response) });
}

const isExecute = (request: Request) =>
  request.method === 'POST' && pathOf(request).endsWith('/execute');

/** Execute's deadline in the cases below: 1 s stands for the interface document's 20 s. */
const SHORT_EXECUTE_DEADLINE = { executeDeadlineMs: 1000 };

const errorBody = (status: number, reason: string, message: string) =>
  JSON.stringify({ status: 'error', statusCode: status, reason, message });

/** Passes requests matching `when` to `change`, the others to `send` unchanged. */
function around(
  when: (request: Request) => boolean,
  change: (request: Request, send: Send) => Promise<Response>,
): (send: Send) => Send {
  return (send) => (request) => (when(request) ? change(request, send) : send(request));
}

/** Submit answering 200: the interface document names no status, and the client takes any 2xx. */
const submitWith200 = {
  check: 'submit.status',
  outcome: 'warn',
  name: 'Submit answering 200 instead of 202',
  observed: /^200$/,
  wrap: around(isSubmit, async (request, send) => {
    const response = await send(request);
    if (response.status !== 202) return response;
    return new Response(response.body, { status: 200, headers: headersOf(response) });
  }),
} satisfies BrokenService;

/** Submit without Location: the client reads the id from the body. */
const withoutLocation = {
  check: 'submit.location',
  outcome: 'warn',
  name: 'Submit without Location',
  observed: /^no Location header$/,
  wrap: around(isSubmit, async (request, send) =>
    rewriteHeaders(await send(request), { location: null }),
  ),
} satisfies BrokenService;

/**
 * An id that is not of the service's own shape (not a UUID here) answered 400, after the tokens
 * were checked: the interface document says nothing of ids but that they are strings.
 */
const malformedIdWith400 = {
  check: 'result.malformed-id',
  outcome: 'warn',
  name: "an id not of the service's shape answered 400",
  observed: /^400 .*INVALID_ID/,
  wrap: around(
    (request) => isResult(request) && signedIn(request) && !UUID.test(idOf(request)),
    async (request, send) =>
      new Response(errorBody(400, 'INVALID_ID', 'The id is not a UUID.'), {
        status: 400,
        // The service's own CORS headers, as its 404 carries them.
        headers: headersOf(await send(request)),
      }),
  ),
} satisfies BrokenService;

export const brokenServices: BrokenService[] = [
  {
    check: 'auth.no-user-token',
    name: 'a gateway that signs in anonymous requests as a default user',
    observed: /^404 .*RESULT_NOT_FOUND/,
    wrap: around(
      (request) => request.method !== 'OPTIONS' && !request.headers.has('authorization'),
      (request, send) => send(withHeaders(request, { authorization: `Bearer ${USER_TOKEN}` })),
    ),
  },
  {
    check: 'auth.no-client-token',
    name: 'a service that does not ask for the app token',
    observed: /^404 .*RESULT_NOT_FOUND/,
    wrap: around(
      (request) => request.method !== 'OPTIONS' && !request.headers.has('x-app-authorization'),
      (request, send) =>
        send(withHeaders(request, { 'x-app-authorization': `Bearer ${CLIENT_TOKEN}` })),
    ),
  },
  {
    check: 'auth.malformed-token',
    name: 'a service that takes a bare token without Bearer',
    observed: /^404 .*RESULT_NOT_FOUND/,
    wrap: around(
      (request) => KNOWN_USER_TOKENS.includes(request.headers.get('authorization') ?? ''),
      (request, send) =>
        send(
          withHeaders(request, { authorization: `Bearer ${request.headers.get('authorization')}` }),
        ),
    ),
  },
  {
    check: 'auth.unknown-token',
    name: 'a service that lets any Bearer token in',
    observed: /^404 .*RESULT_NOT_FOUND/,
    wrap: around(
      (request) => {
        const token = /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
        return token !== undefined && !KNOWN_USER_TOKENS.includes(token);
      },
      (request, send) => send(withHeaders(request, { authorization: `Bearer ${USER_TOKEN}` })),
    ),
  },
  {
    check: 'errors.body',
    name: 'error bodies whose statusCode is always 500',
    observed: /statusCode is 500, but the HTTP status is 40[14]/,
    wrap: (send) => async (request) => {
      const response = await send(request);
      if (response.ok || response.status === 204) return response;
      return rewriteJson(response, (body) => ({ ...body, statusCode: 500 }));
    },
  },
  {
    check: 'submit.answer',
    name: 'Submit answering the id as taskId',
    observed: /^202: .*response\.id: Invalid input/,
    wrap: around(isSubmit, async (request, send) => {
      const response = await send(request);
      if (response.status !== 202) return response;
      return rewriteJson(response, (body) => {
        const { id, status } = body.response as { id: string; status: string };
        return { ...body, response: { taskId: id, status } };
      });
    }),
    // Without an id there is no task to read, repeat or show another user; the events reads read
    // the streamed task, which has one.
    skips: [
      'submit.status',
      'submit.location',
      'idempotency.same-key',
      'idempotency.other-body',
      'result.record',
      'result.states',
      'result.retry-after',
      'result.malformed-id',
      'result.other-user',
    ],
  },
  submitWith200,
  {
    check: 'submit.location',
    outcome: 'warn',
    name: 'a Location outside the base URL',
    observed: /^Location: \/tasks\//,
    wrap: around(isSubmit, async (request, send) => {
      const response = await send(request);
      const location = response.headers.get('location');
      if (location === null) return response;
      return rewriteHeaders(response, { location: `/tasks/${location.split('/').at(-2)}` });
    }),
  },
  {
    check: 'idempotency.same-key',
    name: 'a service that starts a new task for a repeated key',
    observed: /^a new id .*: a second task/,
    wrap: (send) => {
      const firstIds = new Map<string, string>();
      return async (request) => {
        if (!isSubmit(request)) return send(request);
        const key = request.headers.get('idempotency-key');
        const copy = request.clone();
        const response = await send(request);
        if (key === null || response.status !== 202) return response;
        const { response: answer } = (await response.clone().json()) as {
          response: { id: string };
        };
        if (!firstIds.has(key)) {
          firstIds.set(key, answer.id);
          return response;
        }
        return send(withHeaders(copy, { 'idempotency-key': null }));
      };
    },
  },
  {
    check: 'idempotency.other-body',
    name: 'a service that starts a task when a key comes back with another body',
    observed: /^202 with a new id .*: the key was not honoured/,
    wrap: around(isSubmit, async (request, send) => {
      const copy = request.clone();
      const response = await send(request);
      if (response.status !== 422) return response;
      return send(withHeaders(copy, { 'idempotency-key': null }));
    }),
  },
  {
    check: 'result.record',
    name: "a running task's progress.percent written as text",
    observed: /^response\.progress\.percent: expected a number/,
    wrap: around(isResult, async (request, send) => {
      const response = await send(request);
      if (response.status !== 200) return response;
      return rewriteJson(response, (body) => {
        const record = body.response as { status: string; progress: { percent: number } };
        if (record.status === 'COMPLETED' || record.status === 'FAILED') return body;
        return {
          ...body,
          response: {
            ...record,
            progress: { ...record.progress, percent: `${record.progress.percent}%` },
          },
        };
      });
    }),
  },
  {
    check: 'result.states',
    name: 'a finished task read back as running',
    observed: /^COMPLETED then IN_PROGRESS/,
    wrap: (send) => {
      const ended = new Set<string>();
      return around(isResult, async (request, inner) => {
        const response = await inner(request);
        if (response.status !== 200) return response;
        const path = pathOf(request);
        return rewriteJson(response, (body) => {
          const record = body.response as { status: string };
          if (record.status !== 'COMPLETED') return body;
          if (!ended.has(path)) {
            ended.add(path);
            return body;
          }
          return { ...body, response: { ...record, status: 'IN_PROGRESS' } };
        });
      })(send);
    },
  },
  {
    check: 'result.retry-after',
    name: 'Retry-After in milliseconds',
    observed: /^Retry-After: \d+000 \(milliseconds\?\)/,
    wrap: around(isResult, async (request, send) => {
      const response = await send(request);
      const hint = response.headers.get('retry-after');
      return hint === null
        ? response
        : rewriteHeaders(response, { 'retry-after': `${Number(hint) * 1000}` });
    }),
  },
  {
    check: 'result.unknown-id',
    name: "an unknown id of the service's own shape answered 400",
    observed: /^400 .*INVALID_ID/,
    wrap: around(isResult, async (request, send) => {
      const response = await send(request);
      if (response.status !== 404 || !UUID.test(idOf(request))) return response;
      const body = (await response.clone().json()) as { reason: string };
      if (body.reason !== 'RESULT_NOT_FOUND') return response;
      return new Response(errorBody(400, 'INVALID_ID', 'No such id.'), {
        status: 400,
        headers: headersOf(response),
      });
    }),
  },
  malformedIdWith400,
  {
    check: 'result.other-user',
    name: "another user's task answered 403",
    observed: /^403 .*FORBIDDEN/,
    wrap: (send) =>
      around(
        (request) =>
          isResult(request) &&
          request.headers.get('authorization') === `Bearer ${OTHER_USER_TOKEN}`,
        async (request, inner) => {
          const owner = await inner(
            withHeaders(request, { authorization: `Bearer ${USER_TOKEN}` }),
          );
          if (owner.status !== 200) return inner(request);
          const refusal = await inner(request);
          return new Response(errorBody(403, 'FORBIDDEN', 'That task is not yours.'), {
            status: 403,
            headers: headersOf(refusal),
          });
        },
      )(send),
  },
  {
    check: 'stream.headers',
    name: 'a stream sent as text/plain',
    observed: /^Content-Type: text\/plain/,
    wrap: around(isStream, async (request, send) => {
      const response = await send(request);
      return response.status === 200
        ? rewriteHeaders(response, { 'content-type': 'text/plain; charset=utf-8' })
        : response;
    }),
  },
  {
    check: 'stream.task-id',
    name: 'a stream without x-task-id',
    observed: /^no x-task-id header/,
    // Without the id there is no record to hold the stream's event ids against.
    skips: ['stream.event-ids'],
    wrap: around(isStream, async (request, send) =>
      rewriteHeaders(await send(request), { 'x-task-id': null }),
    ),
  },
  {
    check: 'stream.task-id',
    name: 'a stream whose x-task-id is a path step',
    observed: /^x-task-id: \.\.$/,
    skips: ['stream.event-ids'],
    wrap: around(isStream, async (request, send) =>
      rewriteHeaders(await send(request), { 'x-task-id': '..' }),
    ),
  },
  {
    check: 'stream.framing',
    name: 'a heartbeat message of a made-up type',
    observed: /type 'heartbeat', neither task\.\* nor event\.\*/,
    wrap: around(isStream, async (request, send) => {
      const response = await send(request);
      if (response.status !== 200) return response;
      return rewriteStream(response, (text, index) =>
        index === 0 ? `data: {"type":"heartbeat"}\n\n${text}` : text,
      );
    }),
  },
  {
    check: 'stream.live',
    name: 'a proxy that holds the stream back and sends it all when it ends',
    observed:
      /^all \d+ messages came within \d+ ms of one another, [\d.]+ s after the request, a task\.progress of [\d.]+ % among them$/,
    // A task of 0.8 s, long enough for a held-back stream to show.
    options: { params: { frames: 8, frameMs: 1000 } },
    wrap: around(isStream, async (request, send) => {
      const response = await send(request);
      if (response.status !== 200) return response;
      const text = await response.text();
      return new Response(text, { status: 200, headers: headersOf(response) });
    }),
  },
  {
    check: 'stream.framing',
    name: 'messages not separated by blank lines',
    observed:
      /^messages not separated by blank lines: \d+ data: lines came, and no blank line ended a message$/,
    // With no message read, nothing can be said of their ids, their end or their timing.
    skips: ['stream.event-ids', 'stream.final-event', 'stream.live'],
    wrap: around(isStream, async (request, send) => {
      const response = await send(request);
      if (response.status !== 200) return response;
      return rewriteStream(response, (text) => text.replace(/\n\n/g, '\n'));
    }),
  },
  {
    check: 'stream.framing',
    name: 'two events in one message',
    // The event merged into the first message is lost to a reader: Get Result lists one more.
    alsoFails: ['stream.event-ids'],
    observed:
      /^message 1 holds 2 events, one on each of its data: lines: messages not separated by blank lines$/,
    wrap: around(isStream, async (request, send) => {
      const response = await send(request);
      if (response.status !== 200) return response;
      return rewriteStream(response, (text, index) =>
        index === 0 ? text.replace(/\n\n$/, '\n') : text,
      );
    }),
  },
  {
    check: 'stream.event-ids',
    name: 'custom events without their id',
    // A resumable stream carries the id in its message as eventId; the id: line is its position.
    observed: /has no (id: line|eventId)/,
    wrap: around(isStream, async (request, send) => {
      const response = await send(request);
      if (response.status !== 200) return response;
      return rewriteStream(response, (text) =>
        text.replace(/^id: .*\n/gm, '').replace(/,"eventId":"[^"]*"/g, ''),
      );
    }),
  },
  {
    check: 'stream.final-event',
    name: 'a stream left open after task.completed',
    observed: /still open .* after task\.completed/,
    wrap: around(isStream, async (request, send) => {
      const response = await send(request);
      return response.status === 200 ? neverClosing(response) : response;
    }),
  },
  {
    check: 'stream.keep-alive',
    name: 'a gateway that drops comment lines',
    observed: /s without a byte \(0 comment lines in all\)/,
    wrap: around(isStream, async (request, send) => {
      const response = await send(request);
      if (response.status !== 200) return response;
      return rewriteStream(response, (text) => text.replace(/^:.*\n\n/gm, ''));
    }),
  },
  {
    check: 'stream.refusal-json',
    name: 'refusals sent as an event stream',
    observed: /^200 \(text\/event-stream; charset=utf-8\) data: \{"type":"task\.failed"/,
    wrap: around(isStream, async (request, send) => {
      const response = await send(request);
      if (response.status < 400) return response;
      const body = await response.text();
      return new Response(`data: {"type":"task.failed","result":${body}}\n\n`, {
        status: 200,
        headers: headersOf(response, { 'content-type': 'text/event-stream; charset=utf-8' }),
      });
    }),
  },
  {
    check: 'events.after-position',
    name: 'an events read that starts at the position instead of after it',
    observed: /after position \d+, it repeated task\.\S+ at \d+, which the reader already had/,
    wrap: around(isReadAfter, (request, send) =>
      send(
        withHeaders(request, {
          'last-event-id': positionBefore(request.headers.get('last-event-id')!),
        }),
      ),
    ),
  },
  {
    check: 'events.after-position',
    name: 'an events read that skips the first message after the position',
    observed: /after position \d+, it skipped 1 message\(s\), the first \S+ at \d+/,
    wrap: around(isReadAfter, async (request, send) => {
      const response = await send(request);
      if (response.status !== 200) return response;
      let dropped = false;
      return rewriteStream(response, (text) => {
        const end = text.indexOf('\n\n');
        if (dropped || !text.startsWith('id:') || end === -1) return text;
        dropped = true;
        // The first message goes, and the rest of its chunk (a read writes a batch at once) stays.
        return text.slice(end + 2);
      });
    }),
  },
  {
    check: 'events.other-user',
    name: "an events read that serves another user's log",
    observed: /^200 \(text\/event-stream/,
    wrap: around(
      (request) =>
        isEventsRead(request) &&
        request.headers.get('authorization') === `Bearer ${OTHER_USER_TOKEN}`,
      (request, send) => send(withHeaders(request, { authorization: `Bearer ${USER_TOKEN}` })),
    ),
  },
  {
    check: 'events.final-event',
    name: 'an events read left open after the final event',
    observed: /still open .* after task\.completed/,
    wrap: around(
      (request) => isEventsRead(request) && !isReadAfter(request),
      async (request, send) => {
        const response = await send(request);
        return response.status === 200 ? neverClosing(response) : response;
      },
    ),
  },
  {
    check: 'events.follow',
    name: 'a multiplexed read that sends bare events, without task and position',
    observed: /message 1: /,
    wrap: around(
      (request) => request.method === 'POST' && pathOf(request) === '/workflows/events',
      async (request, send) => {
        const response = await send(request);
        if (response.status !== 200) return response;
        return rewriteStream(response, (text) =>
          text.replace(/^data: \{"task":.*?"message":(\{.*\})\}$/gm, 'data: $1'),
        );
      },
    ),
  },
  {
    check: 'cors.preflight',
    name: 'a preflight that does not allow x-app-authorization',
    observed: /without x-app-authorization/,
    wrap: around(
      (request) => request.method === 'OPTIONS',
      async (request, send) =>
        rewriteHeaders(await send(request), {
          'access-control-allow-headers': 'authorization, content-type, idempotency-key',
        }),
    ),
  },
  {
    check: 'cors.expose-headers',
    name: 'a stream that does not expose x-task-id',
    observed:
      /^POST .*\/stream \(200\): Access-Control-Expose-Headers: location, retry-after, without x-task-id/,
    wrap: around(isStream, async (request, send) =>
      rewriteHeaders(await send(request), {
        'access-control-expose-headers': 'location, retry-after',
      }),
    ),
  },
  {
    check: 'execute.deadline',
    name: 'Execute answering 200 after 22 s (a deadline of 20)',
    observed: /^Execute answered 200 after 1\.[12]\d* s, past the limit of 1 s$/,
    options: SHORT_EXECUTE_DEADLINE,
    wrap: around(isExecute, async (request, send) => {
      const startedAt = performance.now();
      const response = await send(request);
      // The answer leaves 1.1 s after the request came: 22 s for a limit of 20.
      await delay(1100 - (performance.now() - startedAt), request.signal);
      return response;
    }),
  },
  {
    check: 'execute.deadline',
    name: 'Execute that never times out',
    observed: /^no answer after 1\.25 s, when the client stops waiting$/,
    options: SHORT_EXECUTE_DEADLINE,
    // Without an answer there is no outcome, nor its usage, to check; the failing task's Execute
    // gets no answer either.
    skips: ['execute.answer'],
    alsoFails: ['execute.failed'],
    wrap: around(isExecute, async (request) => {
      await delay(60_000, request.signal);
      return new Response(null, { status: 500 });
    }),
  },
  {
    check: 'execute.failed',
    name: "a failed task's Execute answered 500 with the error body",
    observed: /^500 \(application\/json.*"reason":"RENDER_FAILED"/,
    wrap: around(isExecute, async (request, send) => {
      const response = await send(request);
      if (response.status !== 200) return response;
      const body = (await response.json()) as { response: { status: string; result: unknown } };
      if (body.response.status !== 'FAILED')
        return new Response(JSON.stringify(body), { status: 200, headers: headersOf(response) });
      return new Response(JSON.stringify(body.response.result), {
        status: 500,
        headers: headersOf(response),
      });
    }),
  },
  {
    check: 'execute.answer',
    name: 'Execute answering status DONE',
    observed: /^response\.status: must be one of "COMPLETED", "FAILED"/,
    // The failing task's Execute is answered DONE too.
    alsoFails: ['execute.failed'],
    wrap: around(
      (request) => pathOf(request).endsWith('/execute'),
      async (request, send) => {
        const response = await send(request);
        if (response.status !== 200) return response;
        return rewriteJson(response, (body) => ({
          ...body,
          response: { ...(body.response as object), status: 'DONE' },
        }));
      },
    ),
  },
  {
    check: 'options.answer',
    name: 'Options quoting credits as text',
    observed: /^response\.credits: expected a number/,
    wrap: around(
      (request) => request.method === 'POST' && pathOf(request).endsWith('/options'),
      async (request, send) => {
        const response = await send(request);
        if (response.status !== 200) return response;
        return rewriteJson(response, (body) => {
          const quote = body.response as { credits: number };
          return { ...body, response: { ...quote, credits: `${quote.credits} credits` } };
        });
      },
    ),
  },
  {
    check: 'options.runs-nothing',
    name: 'Options that starts the task to price it',
    observed: /^x-task-id: .*: Options started a task/,
    wrap: around(
      (request) => request.method === 'POST' && pathOf(request).endsWith('/options'),
      async (request, send) => {
        const copy = request.clone();
        const response = await send(request);
        if (response.status !== 200) return response;
        const submitted = await send(
          new Request(copy.url.replace(/\/options$/, '/submit'), {
            method: 'POST',
            headers: copy.headers,
            body: await copy.text(),
          }),
        );
        const { response: answer } = (await submitted.json()) as { response: { id: string } };
        return rewriteHeaders(response, { 'x-task-id': answer.id });
      },
    ),
  },
  {
    check: 'usage.in-outcomes',
    name: 'a stream whose task.completed leaves out the usage Get Result has',
    observed:
      /^the stream's task\.completed has no usage, but Get Result of that task has one: \{"credits":/,
    wrap: around(isStream, async (request, send) => {
      const response = await send(request);
      if (response.status !== 200) return response;
      return rewriteStream(response, (text) =>
        text.replace(/^data: (\{"type":"task\.completed".*)$/m, (_, data: string) => {
          const event = JSON.parse(data) as Record<string, unknown>;
          delete event.usage;
          return `data: ${JSON.stringify(event)}`;
        }),
      );
    }),
  },
  {
    check: 'usage.in-outcomes',
    name: 'Execute leaving out the usage Get Result has',
    observed: /^Execute has no usage, but Get Result of that task has one/,
    wrap: around(
      (request) => pathOf(request).endsWith('/execute'),
      async (request, send) => {
        const response = await send(request);
        if (response.status !== 200) return response;
        return rewriteJson(response, (body) => {
          const outcome = { ...(body.response as Record<string, unknown>) };
          delete outcome.usage;
          return { ...body, response: outcome };
        });
      },
    ),
  },
  {
    check: 'usage.arithmetic',
    name: 'a total that is one credit more than its entries',
    observed:
      /^Get Result: usage\.credits is \d+(\.\d+)?, but the entries that did not fail add up to/,
    // Get Result's total no longer equals the stream's and Execute's.
    alsoFails: ['usage.in-outcomes'],
    wrap: around(isResult, async (request, send) => {
      const response = await send(request);
      if (response.status !== 200) return response;
      return rewriteJson(response, (body) => {
        const record = body.response as { usage?: { credits: number } };
        if (record.usage === undefined) return body;
        return {
          ...body,
          response: { ...record, usage: { ...record.usage, credits: record.usage.credits + 1 } },
        };
      });
    }),
  },
  {
    check: 'unknown.task',
    name: 'an unknown task answered with the generic NOT_FOUND',
    observed: /"reason":"NOT_FOUND"/,
    wrap: (send) => async (request) => {
      const response = await send(request);
      if (response.status !== 404) return response;
      const body = (await response.clone().json()) as { reason: string };
      return body.reason === 'TASK_NOT_FOUND'
        ? rewriteJson(response, (error) => ({ ...error, reason: 'NOT_FOUND' }))
        : response;
    },
  },
  {
    check: 'unknown.path',
    name: "a gateway's HTML page for paths it does not know",
    observed: /^404 \(text\/html\) <html>/,
    wrap: (send) => async (request) => {
      const response = await send(request);
      if (response.status !== 404) return response;
      const body = (await response.clone().json()) as { reason: string };
      return body.reason === 'NOT_FOUND'
        ? new Response('<html><body>Not Found</body></html>', {
            status: 404,
            headers: headersOf(response, { 'content-type': 'text/html' }),
          })
        : response;
    },
  },
];

/**
 * A service that breaks no rule the client relies on, in a way the interface document allows: the
 * checks must not fail it (warnings for taskwire's own contract aside), given `options`.
 */
export interface ToleratedService {
  name: string;
  wrap: (send: Send) => Send;
  /** The checks of taskwire's own contract it does not keep, which warn. */
  warns?: CheckId[];
  /** Other checks whose outcome shows the service was judged right, such as a skip that says why. */
  outcomes?: Partial<Record<CheckId, CheckOutcome>>;
  /** What the run needs to be given, such as the headers the service requires. */
  options?: Partial<CheckServiceOptions>;
}

/** The values of the headers the service below requires, as a team's app would send them. */
export const REQUIRED_HEADERS = { platform: 'website', 'x-touchpoint': 'checkout-7f3k' };

/**
 * A service that requires `platform` and `x-touchpoint` (the interface document leaves open whether
 * they are): 400 INVALID_HEADER without them, after the tokens are checked, as in docs/protocol.md's
 * order. A CORS preflight carries no header but those it names, so it needs none.
 */
export const requiresHeaders = {
  name: 'a service that requires platform and x-touchpoint',
  options: { headers: REQUIRED_HEADERS },
  wrap: (send) => async (request) => {
    const missing = Object.keys(REQUIRED_HEADERS).filter((name) => !request.headers.has(name));
    const signedIn =
      KNOWN_USER_TOKENS.some(
        (token) => request.headers.get('authorization') === `Bearer ${token}`,
      ) && request.headers.get('x-app-authorization') === `Bearer ${CLIENT_TOKEN}`;
    if (request.method === 'OPTIONS' || missing.length === 0 || !signedIn) return send(request);
    return new Response(errorBody(400, 'INVALID_HEADER', `The header ${missing[0]} is required.`), {
      status: 400,
      headers: { 'content-type': 'application/json' },
    });
  },
} satisfies ToleratedService;

/** The false alarms of 0.3: each of these failed a check though the client works against it. */
export const toleratedServices: ToleratedService[] = [
  { ...submitWith200, warns: ['submit.status'] },
  { ...withoutLocation, warns: ['submit.location'] },
  { ...malformedIdWith400, warns: ['result.malformed-id'] },
  requiresHeaders,
  {
    name: 'a task that works in silence, then reports its end at once',
    options: { task: quietTask.name, params: {} },
    // A burst at the end with no progress below 100 % in it says nothing of a held-back stream.
    outcomes: { 'stream.live': 'skipped' },
    wrap: (send) => send,
  },
];
