/**
 * Services that break one rule each: wrappers of the reference service's `fetch`, each named for
 * the mistake a team's own service or gateway could make, with the check that must catch it and
 * words the failure must hold.
 */
import type { CheckId } from '../../src/check/index.js';
import { CLIENT_TOKEN, OTHER_USER_TOKEN, USER_TOKEN } from './check-fixtures.js';

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

const errorBody = (status: number, reason: string, message: string) =>
  JSON.stringify({ status: 'error', statusCode: status, reason, message });

/** Passes requests matching `when` to `change`, the others to `send` unchanged. */
function around(
  when: (request: Request) => boolean,
  change: (request: Request, send: Send) => Promise<Response>,
): (send: Send) => Send {
  return (send) => (request) => (when(request) ? change(request, send) : send(request));
}

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
    observed: /statusCode is 500, but the HTTP status is 401/,
    wrap: (send) => async (request) => {
      const response = await send(request);
      if (response.ok || response.status === 204) return response;
      return rewriteJson(response, (body) => ({ ...body, statusCode: 500 }));
    },
  },
  {
    check: 'submit.answer',
    name: 'Submit answering 200 instead of 202',
    observed: /^200$/,
    wrap: around(isSubmit, async (request, send) => {
      const response = await send(request);
      if (response.status !== 202) return response;
      return new Response(response.body, { status: 200, headers: headersOf(response) });
    }),
  },
  {
    check: 'submit.location',
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
    name: 'an unknown id answered 400',
    observed: /^400 .*INVALID_ID/,
    wrap: around(isResult, async (request, send) => {
      const response = await send(request);
      if (response.status !== 404) return response;
      const body = (await response.clone().json()) as { reason: string };
      if (body.reason !== 'RESULT_NOT_FOUND') return response;
      return new Response(errorBody(400, 'INVALID_ID', 'No such id.'), {
        status: 400,
        headers: headersOf(response),
      });
    }),
  },
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
      if (response.status !== 200) return response;
      const reader = response.body!.getReader();
      // Passes every chunk on, but never closes: only the reader's cancel ends it.
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (!done) controller.enqueue(value);
          else await new Promise(() => undefined);
        },
      });
      return new Response(body, { status: 200, headers: headersOf(response) });
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
    check: 'execute.answer',
    name: 'Execute answering status DONE',
    observed: /^response\.status: must be one of "COMPLETED", "FAILED"/,
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
    check: 'usage.arithmetic',
    name: 'a total that is one credit more than its entries',
    observed:
      /^Get Result: usage\.credits is \d+(\.\d+)?, but the entries that did not fail add up to/,
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
