/**
 * `createTaskProxy`: a Web-standard handler an app mounts on its own server, which forwards the
 * protocol's five endpoints to the real service and keeps the app token (`x-app-authorization`) on
 * the server (docs/protocol.md, "The server proxy"). Secure by default: the allow-list of tasks is
 * required, the app token is never taken from the browser, only the protocol's headers go upstream
 * (never cookies), redirects are never followed, no page of the service reaches the app's origin, and
 * every request has a deadline and a body limit.
 */
import { isOpaqueTaskId, TASK_NAME_PATTERN } from '../protocol/names.js';
import { isBearerToken, isClientLabel } from '../protocol/headers.js';
import { isEventStreamMediaType, isJsonRequestContentType } from '../protocol/media-types.js';
import { readLimitedBody } from '../protocol/read-limited-body.js';
import { clampDelay } from '../protocol/retry-after.js';
import {
  BODILESS_STATUSES,
  PASSED_ANSWER_HEADERS,
  PASSED_REQUEST_HEADERS,
  proxyAccepted,
  proxyError,
  refusalOfAnswer,
  refusalOfMethod,
  withNoSniff,
  type TaskProxyErrorReason,
} from './proxy-answers.js';
import {
  matchEventsRoute,
  matchRoute,
  methodOf,
  methodOfEventsRead,
  routePath,
  taskPath,
  type EventsRoute,
  type Route,
} from '../protocol/match-route.js';
import {
  offersResumableStreams,
  prefersRespondAsync,
  RESUMABLE_HEADER,
} from '../protocol/resumable-streams.js';
import type { EventLog } from '../events/event-log.js';
import { memoryEventLog } from '../events/memory-event-log.js';
import { answerEventsRead, answerFollowRead, readResponse } from '../events/read-answers.js';
import { relayBody } from './relay-body.js';
import { logOwner } from './log-owner.js';
import { withPlainFraming } from './plain-framing.js';
import {
  answerFromRelay,
  claimShortStart,
  proxyKeepAliveMs,
  startLogRelay,
  type ShortStartClaim,
} from './proxy-event-log.js';

/** A token, or a function called for every request that returns it (or a promise of it). */
export type ProxyTokenSource = string | ((request: Request) => string | Promise<string>);

/** Who the caller is, for the service: the user token `authorize` found for the request. */
export interface TaskProxyAuthorization {
  /** The user's token, sent upstream as `Authorization: Bearer <userToken>`. */
  userToken: string;
  /**
   * The user's id in the app's session, the owner of the user's stream logs (only the owner reads
   * a log). Give it when tokens are refreshed, or a log started with an old token could not be read
   * with a new one. Defaults to a SHA-256 digest of `userToken` (never the token itself).
   */
  userId?: string;
}

/** The `fetch` the proxy asks the service with. */
export type ProxyFetch = (input: string, init: RequestInit) => Promise<Response>;

/** Options of {@link createTaskProxy}. */
export interface TaskProxyOptions {
  /**
   * The base URL of the real service, such as `https://tasks.example.com/v1`; the endpoints'
   * paths are put after it.
   */
  target: string | URL;
  /**
   * The app token, sent upstream as `x-app-authorization: Bearer <clientToken>`; a function is
   * called for every request. Whatever the browser sent in that header is dropped.
   */
  clientToken: ProxyTokenSource;
  /**
   * The allow-list, required: the task names the browser may use, or a function that says whether
   * one may. Any other task, and a name that breaks the protocol's rule, is answered 404
   * `TASK_NOT_FOUND` without a request to `target`.
   */
  tasks: readonly string[] | ((task: string) => boolean);
  /**
   * Finds the caller's user token, from the app's own session, say: resolves to `{ userToken }`, or
   * to a `Response` the proxy answers with instead (a 401 of the app's own). It reads the request's
   * headers and cookies, never its body. Defaults to forwarding the browser's own `Authorization`.
   */
  authorize?: (
    request: Request,
  ) => TaskProxyAuthorization | Response | Promise<TaskProxyAuthorization | Response>;
  /**
   * The path the proxy is mounted under on the app's server, such as `/api/taskwire`: the
   * endpoints are found below it and `Location` headers are rewritten to it. Defaults to `''`.
   */
  basePath?: string;
  /** Sent upstream as the `platform` header, replacing the browser's. Defaults to the browser's. */
  platform?: string;
  /** Sent upstream as the `x-touchpoint` header, replacing the browser's. Defaults to the browser's. */
  touchpoint?: string;
  /** The largest request body passed on; a larger one is 413. Defaults to `1048576` (1 MiB). */
  maxBodyBytes?: number;
  /**
   * The deadline of the browser's request body, and then of the service's answer: a body not
   * arrived whole within it is 408 `REQUEST_TIMEOUT` (the service is asked nothing); every request
   * but a stream then has it again from asking the service to the end of its answer, past which it
   * is 504 `UPSTREAM_TIMEOUT` (or a cut body, once the answer has begun). Defaults to `30000`, above
   * the 20 s Execute may take; a longer one than `2147483647` (about 24.8 days, the longest a timer
   * waits) is that long.
   */
  requestTimeoutMs?: number;
  /**
   * How long a stream may wait, both ways: for the service's next bytes (keep-alives count), and
   * for the page to read the next ones (a page that stopped reading holds the service's stream
   * open). Past it, the browser's stream is broken off and the service's request aborted, so the
   * client recovers by polling. Defaults to `45000`, like the client's own `streamIdleTimeoutMs`;
   * a longer one than `2147483647` (about 24.8 days, the longest a timer waits) is that long.
   */
  streamIdleTimeoutMs?: number;
  /** The `fetch` used to reach the service. Defaults to `globalThis.fetch`. */
  fetch?: ProxyFetch;
  /**
   * Told about a failure inside the proxy (`clientToken` or `authorize` threw); the browser gets
   * only 500 `INTERNAL`. Defaults to writing the error to `console.error`.
   */
  onError?: (error: unknown) => void;
  /**
   * The log of the streams the proxy relays, which makes it offer resumable streams
   * (docs/protocol.md, "Resumable streams (0.4)"): it reads each stream of the service to its end
   * into the log, whether or not the page reads it, and serves the events read, the multiplexed
   * read and the short start from it, to the user who started the task only. `redisEventLog()`
   * (`taskwire/server/redis`) shares it between app servers behind a load balancer. `false` relays
   * streams as 0.3 did. Defaults to a `memoryEventLog()` of this proxy's own.
   */
  events?: EventLog | false;
  /**
   * Keeps work going after the answer ended, on hosts that stop a request's work with its answer
   * (serverless functions): given the promise of each relay into the log, such as Vercel's
   * `waitUntil` or Next.js `after`. Defaults to none (a long-lived server needs none).
   */
  waitUntil?: (work: Promise<unknown>) => void;
}

/** A proxy made by {@link createTaskProxy}: one Web-standard handler for every request. */
export interface TaskProxy {
  /** Answers one request from the browser; never rejects. */
  fetch(request: Request): Promise<Response>;
}

/** The default of {@link TaskProxyOptions.maxBodyBytes}: 1 MiB. */
export const DEFAULT_PROXY_MAX_BODY_BYTES = 1024 * 1024;
/** The default of {@link TaskProxyOptions.requestTimeoutMs}: 30 s. */
export const DEFAULT_PROXY_REQUEST_TIMEOUT_MS = 30_000;
/** The default of {@link TaskProxyOptions.streamIdleTimeoutMs}: 45 s, past the 15 s keep-alive. */
export const DEFAULT_PROXY_STREAM_IDLE_TIMEOUT_MS = 45_000;

function writeErrorToConsole(error: unknown): void {
  console.error('taskwire proxy: a request failed inside the proxy:', error);
}

function checkPositive(value: number | undefined, name: string): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
    throw new TypeError(`createTaskProxy: ${name} must be a positive number.`);
  }
}

/** The service's base URL, and its path without a trailing slash (`''` at the root). */
interface Target {
  /** The base URL without a trailing slash, such as `https://tasks.example.com/v1`. */
  base: string;
  /** Its origin. */
  origin: string;
  /** Its path without a trailing slash. */
  path: string;
}

/** The target without a trailing slash; throws on anything but an http(s) URL with a path. */
function targetOf(target: string | URL): Target {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new TypeError('createTaskProxy: target must be an absolute http: or https: URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError('createTaskProxy: target must be an absolute http: or https: URL.');
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new TypeError('createTaskProxy: target must hold no query, fragment or credentials.');
  }
  const path = url.pathname.replace(/\/+$/, '');
  return { base: url.origin + path, origin: url.origin, path };
}

/** `basePath` without its trailing slashes; throws when it is not a path. */
function normalBasePath(basePath: string | undefined): string {
  const path = (basePath ?? '').replace(/\/+$/, '');
  if (path !== '' && (!path.startsWith('/') || /[?#\s]/.test(path))) {
    throw new TypeError("createTaskProxy: basePath must be a path that starts with '/'.");
  }
  return path;
}

/** The allow-list as a predicate; throws when there is none. */
function allowListOf(tasks: TaskProxyOptions['tasks'] | undefined): (task: string) => boolean {
  if (typeof tasks === 'function') return tasks;
  if (!Array.isArray(tasks)) {
    throw new TypeError(
      'createTaskProxy: tasks (the names the browser may use, or a function) is required.',
    );
  }
  const allowed = new Set<string>(tasks);
  return (task) => allowed.has(task);
}

function checkLabel(value: string | undefined, name: string): void {
  if (value !== undefined && !isClientLabel(value)) {
    throw new TypeError(`createTaskProxy: ${name} must be 1 to 64 of A-Z a-z 0-9 . _ -.`);
  }
}

/** A token read for a request; throws (without the value) when it cannot go in a header. */
function checkedToken(value: unknown, what: string): string {
  if (!isBearerToken(value)) {
    throw new TypeError(`taskwire proxy: ${what} is not a non-empty token of visible characters.`);
  }
  return value;
}

/**
 * Maps the service's `Location` onto the proxy's own path: a location at `target` under its path
 * becomes `basePath` and the rest; one that points anywhere else is dropped.
 */
function proxyLocation(location: string, target: Target, basePath: string): string | undefined {
  let resolved: URL;
  try {
    resolved = new URL(location, `${target.base}/`);
  } catch {
    return undefined;
  }
  if (resolved.origin !== target.origin) return undefined;
  if (!resolved.pathname.startsWith(`${target.path}/workflows/`)) return undefined;
  return basePath + resolved.pathname.slice(target.path.length);
}

/**
 * Makes a proxy that forwards the protocol's five endpoints below `basePath` to `target`, adding
 * the app token on the server (docs/protocol.md, "The server proxy"). Throws a `TypeError` for
 * options that cannot work (no allow-list, a target that is not an http(s) URL).
 */
export function createTaskProxy(options: TaskProxyOptions): TaskProxy {
  const target = targetOf(options.target);
  const basePath = normalBasePath(options.basePath);
  const isAllowed = allowListOf(options.tasks);
  if (typeof options.clientToken !== 'string' && typeof options.clientToken !== 'function') {
    throw new TypeError('createTaskProxy: clientToken (a string or a function) is required.');
  }
  if (typeof options.clientToken === 'string') checkedToken(options.clientToken, 'clientToken');
  checkLabel(options.platform, 'platform');
  checkLabel(options.touchpoint, 'touchpoint');
  checkPositive(options.maxBodyBytes, 'maxBodyBytes');
  checkPositive(options.requestTimeoutMs, 'requestTimeoutMs');
  checkPositive(options.streamIdleTimeoutMs, 'streamIdleTimeoutMs');
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_PROXY_MAX_BODY_BYTES;
  // A timer fires at once past the longest delay it takes: a longer deadline is that long instead.
  const requestTimeoutMs = clampDelay(options.requestTimeoutMs ?? DEFAULT_PROXY_REQUEST_TIMEOUT_MS);
  const streamIdleTimeoutMs = clampDelay(
    options.streamIdleTimeoutMs ?? DEFAULT_PROXY_STREAM_IDLE_TIMEOUT_MS,
  );
  const onError = options.onError ?? writeErrorToConsole;
  const upstreamFetch: ProxyFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const log = options.events === false ? undefined : (options.events ?? memoryEventLog());
  // A proxy with a log says so on every answer (docs/protocol.md, "Resumable streams (0.4)").
  const everyAnswer: Readonly<Record<string, string>> =
    log === undefined ? {} : { [RESUMABLE_HEADER]: '1' };

  async function clientTokenFor(request: Request): Promise<string> {
    const source = options.clientToken;
    return checkedToken(typeof source === 'string' ? source : await source(request), 'clientToken');
  }

  /**
   * The user's `Authorization` for the service and who the user is, or the answer `authorize`
   * refused with.
   */
  async function userAuthorization(
    request: Request,
  ): Promise<{ header: string | null; userId: string | undefined } | Response> {
    if (options.authorize === undefined) {
      return { header: request.headers.get('authorization'), userId: undefined };
    }
    const outcome = await options.authorize(request);
    if (outcome instanceof Response) return outcome;
    const given = outcome as Partial<TaskProxyAuthorization> | null | undefined;
    const header = `Bearer ${checkedToken(given?.userToken, 'the userToken authorize returned')}`;
    const userId = typeof given?.userId === 'string' ? given.userId : undefined;
    return { header, userId };
  }

  /** The body of a POST, read within `maxBodyBytes` and `requestTimeoutMs`, or the refusal. */
  async function readBody(request: Request): Promise<Uint8Array<ArrayBuffer> | Response> {
    // A body trickled in (or never finished) must not hold the proxy open: it has
    // `requestTimeoutMs` to arrive whole, and the service is asked nothing until it has.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), requestTimeoutMs);
    const reading = await readLimitedBody(request, maxBodyBytes, deadline.signal)
      .catch(() => undefined)
      .finally(() => clearTimeout(timer));
    if (reading === undefined && deadline.signal.aborted) {
      return proxyError(
        408,
        'REQUEST_TIMEOUT',
        `The body did not arrive within ${requestTimeoutMs} ms.`,
      );
    }
    if (reading === undefined) {
      return proxyError(400, 'MALFORMED_BODY', 'The body could not be read.');
    }
    if (reading.outcome === 'too-large') {
      return proxyError(413, 'PAYLOAD_TOO_LARGE', `The body is larger than ${maxBodyBytes} bytes.`);
    }
    return reading.bytes;
  }

  /** Whether the browser may use a task of this name: the protocol's rule and the allow-list. */
  function isServed(taskName: string): boolean {
    return TASK_NAME_PATTERN.test(taskName) && isAllowed(taskName);
  }

  /**
   * Answers a read of resumable streams from the log, to the log's owner only, in the order of the
   * proxy's checks: method, `authorize`, content type, task name and id, body.
   */
  async function answerRead(request: Request, route: EventsRoute, events: EventLog) {
    const refused = refusalOfMethod(request, methodOfEventsRead(route));
    if (refused !== undefined) return refused;
    const user = await userAuthorization(request);
    if (user instanceof Response) return user;
    const owner = await logOwner(user.header, user.userId);
    if (owner === undefined) {
      return proxyError(401, 'UNAUTHENTICATED', 'The Authorization header names no user.');
    }
    const read = { keepAliveMs: proxyKeepAliveMs(streamIdleTimeoutMs), signal: request.signal };
    if (route.read === 'events') {
      if (!isServed(route.taskName) || !isOpaqueTaskId(route.taskId)) {
        return proxyError(404, 'TASK_NOT_FOUND', 'No task with this name or id.');
      }
      const key = { taskName: route.taskName, taskId: route.taskId };
      const lastEventId = request.headers.get('last-event-id');
      return readResponse(await answerEventsRead(events, key, owner, lastEventId, read));
    }
    if (!isJsonRequestContentType(request.headers.get('content-type'))) {
      return proxyError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'A POST must have Content-Type: application/json.',
      );
    }
    const bytes = await readBody(request);
    if (bytes instanceof Response) return bytes;
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return proxyError(400, 'MALFORMED_BODY', 'The body is not JSON.');
    }
    return readResponse(answerFollowRead(events, body, owner, { ...read, isReadable: isServed }));
  }

  /**
   * Answers one request: the proxy's own refusals, in the order of its checks (docs/protocol.md,
   * "The server proxy"), then the service's answer.
   */
  async function answer(request: Request): Promise<Response> {
    const pathname = new URL(request.url).pathname;
    const eventsRoute = log === undefined ? undefined : matchEventsRoute(pathname, basePath);
    if (log !== undefined && eventsRoute !== undefined)
      return answerRead(request, eventsRoute, log);
    const route = matchRoute(pathname, basePath);
    if (route === undefined) return proxyError(404, 'NOT_FOUND', 'No endpoint at this path.');
    const method = methodOf(route.endpoint);
    const refused = refusalOfMethod(request, method);
    if (refused !== undefined) return refused;
    const user = await userAuthorization(request);
    if (user instanceof Response) return user;
    const authorization = user.header;
    // A page of another site can send a cookie-bearing POST only as a form (text/plain and the
    // like); a JSON one needs a preflight, which the proxy never grants. So a POST that is not JSON
    // never reaches the service, whatever the service itself would make of it.
    if (method === 'POST' && !isJsonRequestContentType(request.headers.get('content-type'))) {
      return proxyError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'A POST must have Content-Type: application/json.',
      );
    }
    if (!TASK_NAME_PATTERN.test(route.taskName) || !isAllowed(route.taskName)) {
      // Exactly like a task the service does not have; a name that breaks the rule may be long or
      // hold control characters, so it is not repeated.
      const shown = TASK_NAME_PATTERN.test(route.taskName) ? `'${route.taskName}'` : 'of that name';
      return proxyError(404, 'TASK_NOT_FOUND', `No task ${shown}.`);
    }
    // Opaque ids only: a hop behind the proxy that decodes paths again (`%2F` into `/`) must never
    // be walked off the allow-list or onto another path of the service's host.
    if (route.endpoint === 'result' && !isOpaqueTaskId(route.taskId)) {
      return proxyError(404, 'TASK_NOT_FOUND', 'No task with this id.');
    }
    let body: Uint8Array<ArrayBuffer> | undefined;
    if (method === 'POST') {
      const read = await readBody(request);
      if (read instanceof Response) return read;
      body = read;
    }
    const headers = new Headers();
    for (const name of PASSED_REQUEST_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    if (options.platform !== undefined) headers.set('platform', options.platform);
    if (options.touchpoint !== undefined) headers.set('x-touchpoint', options.touchpoint);
    if (authorization !== null) headers.set('authorization', authorization);
    headers.set('x-app-authorization', `Bearer ${await clientTokenFor(request)}`);
    // Only a stream is logged, so only a stream needs its owner (a digest of the token, which a
    // quote or a poll need not wait for).
    const owner =
      route.endpoint === 'stream' && log !== undefined
        ? await logOwner(authorization, user.userId)
        : undefined;
    if (log === undefined || owner === undefined) {
      return forward(request, route, method, headers, body, undefined);
    }
    // A short start (docs/protocol.md, "Resumable streams (0.4)"): the service is asked for the
    // stream as always, and the page is answered 202 once it gave the task's id.
    const shortStart = prefersRespondAsync(request.headers.get('prefer'));
    const idempotencyKey = request.headers.get('idempotency-key');
    let claim: ShortStartClaim = { kind: 'unclaimed' };
    if (shortStart && idempotencyKey !== null && body !== undefined) {
      claim = await claimShortStart(
        log,
        owner,
        route.taskName,
        idempotencyKey,
        body,
        (taskId) => resultLocation(route.taskName, taskId),
        requestTimeoutMs,
      );
      if (claim.kind === 'repeat') return claim.answer;
    }
    const answered = await forward(request, route, method, headers, body, {
      log,
      owner,
      shortStart,
    });
    if (claim.kind === 'first') {
      const taskId = answered.status === 202 ? answered.headers.get('x-task-id') : null;
      await (taskId === null ? claim.release() : claim.record(taskId)).catch(() => undefined);
    }
    return answered;
  }

  /** The proxy's own path of Get Result for a task. */
  function resultLocation(taskName: string, taskId: string): string {
    return basePath + taskPath('result', taskName, taskId);
  }

  /** Asks the service and relays its answer, under the request's deadline or the stream's. */
  async function forward(
    request: Request,
    route: Route,
    method: 'GET' | 'POST',
    headers: Headers,
    body: Uint8Array<ArrayBuffer> | undefined,
    logged: { log: EventLog; owner: string; shortStart: boolean } | undefined,
  ): Promise<Response> {
    const upstream = new AbortController();
    const isStream = route.endpoint === 'stream';
    const timeoutMs = isStream ? streamIdleTimeoutMs : requestTimeoutMs;
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const startTimer = (): void => {
      timer = setTimeout(() => {
        timedOut = true;
        upstream.abort();
      }, timeoutMs);
    };
    const stopTimer = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    };
    // A browser that goes away takes the service's request with it (a stream's task keeps running
    // at the service, readable with Get Result).
    const abortUpstream = (): void => upstream.abort();
    const release = (): void => {
      stopTimer();
      request.signal.removeEventListener('abort', abortUpstream);
    };
    if (request.signal.aborted) upstream.abort();
    request.signal.addEventListener('abort', abortUpstream, { once: true });

    const url = target.base + routePath(route);
    startTimer();
    let response: Response;
    try {
      response = await upstreamFetch(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        // A redirect would carry the app token and the user's to wherever it points.
        redirect: 'manual',
        signal: upstream.signal,
      });
    } catch {
      release();
      if (timedOut) {
        return proxyError(
          504,
          'UPSTREAM_TIMEOUT',
          `The service did not answer within ${timeoutMs} ms.`,
        );
      }
      // The browser went away: nobody reads this answer; 499 is what servers log for it.
      if (request.signal.aborted) return new Response(null, { status: 499 });
      return proxyError(502, 'UPSTREAM_UNAVAILABLE', 'The service could not be reached.');
    }

    const refusal = refusalOfAnswer(response);
    if (refusal !== undefined) {
      release();
      upstream.abort();
      await response.body?.cancel().catch(() => undefined);
      return proxyError(502, refusal.reason, refusal.message);
    }

    const answerHeaders = new Headers();
    for (const name of PASSED_ANSWER_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) answerHeaders.set(name, value);
    }
    const location = response.headers.get('location');
    const rewritten = location === null ? undefined : proxyLocation(location, target, basePath);
    if (rewritten !== undefined) answerHeaders.set('location', rewritten);
    if (isEventStreamMediaType(response.headers.get('content-type'))) {
      // Neither a compressing server (Next.js) nor a buffering one in front (nginx) may hold
      // events back.
      answerHeaders.set('cache-control', 'no-cache, no-transform');
      answerHeaders.set('x-accel-buffering', 'no');
    }

    if (response.body === null || BODILESS_STATUSES.has(response.status)) {
      release();
      await response.body?.cancel().catch(() => undefined);
      return new Response(null, { status: response.status, headers: answerHeaders });
    }
    const taskId = response.headers.get('x-task-id');
    if (
      logged !== undefined &&
      response.status === 200 &&
      isEventStreamMediaType(response.headers.get('content-type')) &&
      isOpaqueTaskId(taskId)
    ) {
      const key = { taskName: route.taskName, taskId };
      // From here the relay owns the service's request: a page that goes away no longer aborts it.
      release();
      const relaying = await startLogRelay({
        log: logged.log,
        key,
        owner: logged.owner,
        response,
        idleTimeoutMs: streamIdleTimeoutMs,
        abortUpstream: () => upstream.abort(),
        keepRunning: options.waitUntil,
        pageWaits: !logged.shortStart,
      });
      if (relaying !== undefined) {
        if (relaying.tail === undefined) {
          return proxyAccepted(resultLocation(route.taskName, taskId), taskId);
        }
        return answerFromRelay(relaying.tail, key, {
          keepAliveMs: proxyKeepAliveMs(streamIdleTimeoutMs),
          signal: request.signal,
        });
      }
      // The log could not take it: the stream is relayed as it came, as without a log.
      request.signal.addEventListener('abort', abortUpstream, { once: true });
    }
    // A proxy without a log offers no reads, so a resumable stream passes as a 0.3 one.
    const source =
      isStream && log === undefined && offersResumableStreams(response.headers)
        ? withPlainFraming(response.body)
        : response.body;
    // A stream's timer measures only the waits for the service's next bytes; a request's deadline
    // runs on to the end of its answer.
    if (isStream) stopTimer();
    const relayed = relayBody(
      source,
      {
        beforeRead: () => {
          if (isStream) startTimer();
        },
        afterRead: () => {
          if (isStream) stopTimer();
        },
        finished: release,
        // With no log of the stream's messages, nobody would read the rest: the service's request
        // is aborted, and its task goes on, readable with Get Result.
        pageLeft: (rest) => {
          release();
          upstream.abort();
          void rest.cancel().catch(() => undefined);
        },
      },
      // A page that reads nothing holds the service's stream (and its connection) open: a stream
      // is cut past the same idle limit as a silent service; any other answer has its deadline.
      { pageIdleTimeoutMs: isStream ? streamIdleTimeoutMs : undefined },
    );
    return new Response(relayed, { status: response.status, headers: answerHeaders });
  }

  return {
    async fetch(request) {
      try {
        return withNoSniff(await answer(request), everyAnswer);
      } catch (error) {
        onError(error);
        return withNoSniff(
          proxyError(500, 'INTERNAL', 'The proxy failed to answer this request.'),
          everyAnswer,
        );
      }
    },
  };
}

export type { TaskProxyErrorReason };
