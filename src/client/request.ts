/**
 * Sending one request: its URL, its headers (tokens read here and nowhere else, never put in a URL
 * or a message), no redirect followed, and the one retry after a 401 (docs/protocol.md, "The
 * client").
 */
import { TaskwireError } from './errors.js';
import { abortedError, raceAbort } from './abort.js';
import { networkError, refusal, withoutQuery } from './error-factories.js';
import { discardBody, type Sent } from './read-answer.js';
import type { TokenSource } from './types.js';
import { offersResumableStreams } from '../protocol/resumable-streams.js';
import type { ActivityFeed, CallRecord } from './activity-types.js';

/** What sending a request needs from the client's configuration. */
export interface RequestContext {
  /** The base URL as configured (absolute, or a path on the page's origin). */
  baseUrl: string;
  /** Absent: no `Authorization` header (a proxy supplies it). */
  userToken: TokenSource | undefined;
  /** Absent: no `x-app-authorization` header (a proxy adds it on the server). */
  clientToken: TokenSource | undefined;
  platform: string | undefined;
  touchpoint: string | undefined;
  fetch: (request: Request) => Promise<Response>;
  onUnauthorized: (() => void | Promise<void>) | undefined;
  /** The largest JSON answer read, in bytes. */
  maxResponseBytes: number;
  /** The client's activity feed (`activity-feed.ts`): reports nothing while no one listens. */
  feed: ActivityFeed;
  /**
   * What the client learnt of its service: `resumable` once any answer said it offers resumable
   * streams (docs/protocol.md, "Resumable streams (0.4)"), never unlearnt; `onResumable` is called
   * at that first answer (the hooks load their resumable side then).
   */
  service: { resumable: boolean; onResumable?: (() => void) | undefined };
}

/** One request to send. */
interface OutgoingRequest {
  method: 'GET' | 'POST';
  /** The path below the base URL, already encoded. */
  path: string;
  /** The JSON body of a POST. */
  body?: string;
  /** The media type asked for. */
  accept: string;
  /** Extra headers (the Idempotency-Key). */
  headers?: Record<string, string>;
  signal: AbortSignal;
  /** The call the request belongs to, with its task id when known (for errors and activity). */
  call: CallRecord;
}

/** Bytes a header value may hold: `Headers` throws (quoting the value) on CR, LF, NUL or non-Latin-1. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Checks a header value here, so that no TypeError from `Headers` can ever quote a token. */
function headerValue(value: unknown, what: string): string {
  if (typeof value !== 'string' || !HEADER_VALUE.test(value)) {
    throw refusal('INVALID_HEADER', `The ${what} is not a string that can be sent in a header.`);
  }
  return value;
}

/** Runs one of the app's own functions; whatever it throws becomes a retryable `auth` error. */
async function runAppFunction<Value>(
  run: () => Value | Promise<Value>,
  what: string,
): Promise<Value> {
  try {
    return await run();
  } catch (error) {
    // The message names the function only: what it threw may hold a token, so it stays in `cause`.
    throw new TaskwireError('auth', `The app's ${what} failed.`, { cause: error });
  }
}

async function readToken(
  source: TokenSource | undefined,
  what: string,
): Promise<string | undefined> {
  if (source === undefined) return undefined;
  const token =
    typeof source === 'function' ? await runAppFunction(source, `${what} function`) : source;
  return headerValue(token, what);
}

/** An absolute URL scheme such as `http:`. */
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i;

/** The full URL of `path`, or a refusal when the base URL is relative and there is no page to resolve it. */
function resolveUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (ABSOLUTE_URL.test(base)) return base + path;
  const location = (globalThis as { location?: { href?: string } }).location;
  if (typeof location?.href !== 'string') {
    throw refusal(
      'INVALID_BASE_URL',
      `The base URL '${base}' is relative, and there is no page location to resolve it against.`,
    );
  }
  return new URL(base + path, location.href).href;
}

/**
 * Sends a request with the tokens configured (read afresh; a token left out sends no header), and on a 401 awaits `onUnauthorized` once and sends
 * it once more with the tokens read again. Rejects with `aborted` or `network`; every status resolves.
 */
export async function send(context: RequestContext, outgoing: OutgoingRequest): Promise<Sent> {
  const { signal, call, method, path } = outgoing;
  const { taskId } = call;
  const url = resolveUrl(context.baseUrl, path);
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) throw abortedError(signal, taskId);
    const [userToken, clientToken] = await Promise.all([
      readToken(context.userToken, 'user token'),
      readToken(context.clientToken, 'client token'),
    ]);
    if (signal.aborted) throw abortedError(signal, taskId);
    const headers: Record<string, string> = {
      ...outgoing.headers,
      accept: outgoing.accept,
    };
    if (userToken !== undefined) headers.authorization = `Bearer ${userToken}`;
    if (clientToken !== undefined) headers['x-app-authorization'] = `Bearer ${clientToken}`;
    if (context.platform !== undefined) headers.platform = context.platform;
    if (context.touchpoint !== undefined) headers['x-touchpoint'] = context.touchpoint;
    if (outgoing.body !== undefined) headers['content-type'] = 'application/json';
    for (const name in headers) headerValue(headers[name], `${name} value`);
    const request = new Request(url, {
      method,
      headers,
      body: outgoing.body,
      signal,
      // A redirect would carry both tokens and the body to wherever it points.
      redirect: 'manual',
    });
    const started = performance.now();
    let outcome: Response | TaskwireError;
    try {
      outcome = await raceAbort(context.fetch(request), signal);
    } catch (error) {
      outcome = signal.aborted
        ? abortedError(signal, taskId)
        : networkError(method, url, error, taskId);
    }
    // `outgoing` holds no token (they are only in `headers`); activity.ts reads what it needs.
    context.feed.report('request', call, outgoing, attempt, performance.now() - started, outcome);
    if (TaskwireError.isInstance(outcome)) throw outcome;
    const response = outcome;
    if (!context.service.resumable && offersResumableStreams(response.headers)) {
      context.service.resumable = true;
      context.service.onResumable?.();
    }
    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      await discardBody(response);
      throw new TaskwireError(
        'http',
        `${method} ${withoutQuery(url)} answered a redirect, never followed: check the base URL.`,
        { status: response.status, reason: 'REDIRECT', taskId },
      );
    }
    if (response.status === 401 && attempt === 0 && context.onUnauthorized !== undefined) {
      await discardBody(response);
      await runAppFunction(context.onUnauthorized, 'onUnauthorized');
      context.feed.report('retry', call, outgoing, 401);
      continue;
    }
    return { response, where: `${method} ${withoutQuery(url)}` };
  }
}
