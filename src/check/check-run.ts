/**
 * The state of one `checkService` run: the resolved options, the recording `fetch`, the verdicts so
 * far, and the requests the checks send. A check sends what it needs through `send` (a JSON answer,
 * read whole) or `open` (a stream, left for the check to read), and records a verdict with `pass`,
 * `fail` or `skip`; a failure names the exchange that showed it, from which its `curl` is written.
 */
import { taskPath, type TaskPathEnd } from '../protocol/match-route.js';
import type { JsonObject } from '../protocol/records.js';
import { CHECKS, type CheckId } from './check-catalogue.js';
import type { CheckProgress, CheckResult } from './check-types.js';
import { curlOf, Recorder, type Exchange } from './recorder.js';
import { escapeControl, excerpt, redact, type Secret } from './shown-text.js';
import { lookalikeId, madeUpId } from './unknown-ids.js';
import { readText, TOO_LARGE } from './read-text.js';

/** The options of a run, with every default applied. */
export interface ResolvedOptions {
  baseUrl: string;
  userToken: string;
  clientToken: string | undefined;
  otherUserToken: string | undefined;
  task: string;
  params: JsonObject;
  failingParams: JsonObject | undefined;
  keepAliveTask: { task: string; params: JsonObject } | undefined;
  /** The headers given, their names in lower case. */
  headers: Array<[name: string, value: string]>;
  origin: string;
  pollIntervalMs: number;
  taskTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveMs: number;
  closeWithinMs: number;
  executeDeadlineMs: number;
  runTimeoutMs: number;
  /** Aborted when the caller aborts the run or its deadline passes. */
  signal: AbortSignal | undefined;
  onProgress: ((progress: CheckProgress) => void) | undefined;
}

/** Whose user token a request carries: the user's, the other user's, none, or a given header value. */
export type UserTokenChoice = 'user' | 'other' | 'none' | { header: string };

/** A request a check sends. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'OPTIONS';
  /** The path below the base URL, such as `/workflows/echo/submit`. */
  path: string;
  /** Defaults to `'user'`. */
  user?: UserTokenChoice;
  /** Whether to send the client token. Defaults to `true`. */
  client?: boolean;
  /** A JSON body (sent with `Content-Type: application/json`), or raw text. */
  body?: unknown;
  /** More headers. */
  headers?: Record<string, string>;
  /** How long to wait for the answer, in milliseconds. Defaults to the run's `requestTimeoutMs`. */
  timeoutMs?: number;
}

/** A JSON answer, read whole. */
export interface Answer {
  exchange: Exchange;
  /** 0 when no answer came. */
  status: number;
  headers: Headers;
  text: string;
  /** The body as messages show it: every secret in it hidden (shown-text.ts). */
  shown: string;
  /** The body parsed as JSON; `undefined` when it is not JSON. */
  json: unknown;
  /** Whether the body was larger than {@link MAX_CAPTURED_BYTES}, and so read only that far. */
  tooLarge: boolean;
  /** Why no answer came, when none did. */
  error?: string;
}

/** A failure's details. */
export interface Failure {
  expected: string;
  observed: string;
  /** The exchange that showed it, for the `curl` command. */
  exchange?: Exchange;
}

/** One run of the checks. */
export class CheckRun {
  readonly options: ResolvedOptions;
  readonly recorder: Recorder;
  readonly secrets: Secret[];
  readonly #results = new Map<CheckId, CheckResult>();

  constructor(options: ResolvedOptions, send: (request: Request) => Promise<Response>) {
    this.options = options;
    this.recorder = new Recorder(send, options);
    this.secrets = [
      ...options.headers.flatMap(([name, value]) => headerSecrets(name, value)),
      { value: options.userToken, variable: '$TASKWIRE_USER_TOKEN' },
      ...(options.clientToken === undefined
        ? []
        : [{ value: options.clientToken, variable: '$TASKWIRE_CLIENT_TOKEN' } as const]),
      ...(options.otherUserToken === undefined
        ? []
        : [{ value: options.otherUserToken, variable: '$TASKWIRE_OTHER_USER_TOKEN' } as const]),
    ];
  }

  /** The id of the first task the run started, which tells the shape of the service's ids. */
  knownId: string | undefined;

  /**
   * The id of the task the run streamed, once its stream answered: the task whose log a service
   * that offers resumable streams surely keeps (a proxy logs the streams it relays, not Submits).
   */
  streamedId: string | undefined;

  /**
   * An id the service never gave out, of the shape of its own ids when one is known (so a service
   * that checks its ids' format reads it as unknown, not malformed), else a made-up one.
   */
  unknownId(): string {
    return this.knownId === undefined ? madeUpId() : lookalikeId(this.knownId);
  }

  /** The full URL of `path` below the base URL. */
  url(path: string): string {
    return `${this.options.baseUrl}${path}`;
  }

  /**
   * The path of an endpoint (or the events read) of the checked task, or of `task`, with the task's
   * `id` for Get Result and the events read.
   */
  taskPath(end: TaskPathEnd, { task = this.options.task, id = '' } = {}): string {
    return taskPath(end, task, id);
  }

  /**
   * Every check's verdict, in the catalogue's order; a check that recorded none (the run was
   * aborted before it) is skipped, so a report always lists every check.
   */
  results(): CheckResult[] {
    return CHECKS.map(
      (check) =>
        this.#results.get(check.id) ?? {
          id: check.id,
          title: check.title,
          rule: check.rule,
          level: check.level,
          outcome: 'skipped',
          why: 'not reached: the run was aborted',
        },
    );
  }

  /** The checks that have ended so far, in the order they ended. */
  ended(): CheckId[] {
    return [...this.#results.keys()];
  }

  pass(id: CheckId, note?: string): void {
    this.#record(id, { outcome: 'pass', ...(note === undefined ? {} : { note }) });
  }

  skip(id: CheckId, why: string): void {
    this.#record(id, { outcome: 'skipped', why });
  }

  /** Records a broken rule: a failure, or a warning for a rule of taskwire's own contract. */
  fail(id: CheckId, failure: Failure): void {
    this.#record(id, {
      outcome: checkOf(id).level === 'contract' ? 'warn' : 'fail',
      expected: failure.expected,
      observed: failure.observed,
      ...(failure.exchange ? { curl: curlOf(failure.exchange.request, this.secrets) } : {}),
    });
  }

  /** Records `failure` when there is one, else a pass. */
  verdict(id: CheckId, failure: Failure | undefined, note?: string): void {
    if (failure) this.fail(id, failure);
    else this.pass(id, note);
  }

  #record(id: CheckId, outcome: Omit<CheckResult, 'id' | 'title' | 'rule' | 'level'>): void {
    // Once the run is aborted, the requests cut short would only report the abort.
    if (this.#results.has(id) || this.options.signal?.aborted) return;
    const { title, rule, level } = checkOf(id);
    const result = shownResult({ id, title, rule, level, ...outcome }, this.secrets);
    this.#results.set(id, result);
    this.options.onProgress?.({ result, done: this.#results.size, total: CHECKS.length });
  }

  /** The Request of `spec`. */
  request(spec: RequestSpec, signal?: AbortSignal): Request {
    const headers = new Headers(spec.headers);
    const user = spec.user ?? 'user';
    if (user === 'user') headers.set('authorization', `Bearer ${this.options.userToken}`);
    else if (user === 'other' && this.options.otherUserToken !== undefined)
      headers.set('authorization', `Bearer ${this.options.otherUserToken}`);
    else if (typeof user === 'object') headers.set('authorization', user.header);
    if (spec.client !== false && this.options.clientToken !== undefined)
      headers.set('x-app-authorization', `Bearer ${this.options.clientToken}`);
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    return new Request(this.url(spec.path), {
      method: spec.method,
      headers,
      body,
      signal,
      redirect: 'manual',
    });
  }

  /** Sends `spec` and reads its answer whole, within the request deadline; never rejects. */
  async send(spec: RequestSpec): Promise<Answer> {
    const signal = this.#deadline(spec.timeoutMs ?? this.options.requestTimeoutMs);
    const { exchange, response, error } = await this.recorder.record(this.request(spec, signal));
    let failure = error;
    if (response !== undefined) {
      try {
        const { text, tooLarge } = await readText(response);
        return {
          exchange,
          status: response.status,
          headers: response.headers,
          text,
          shown: redact(text, this.secrets),
          json: tooLarge ? undefined : parseJson(text),
          tooLarge,
        };
      } catch (readError) {
        failure = readError;
      }
    }
    return {
      exchange,
      status: 0,
      headers: new Headers(),
      text: '',
      shown: '',
      json: undefined,
      tooLarge: false,
      error: describeError(failure, signal),
    };
  }

  /** Sends `spec` and resolves to the answer unread (for a stream); rejects when none came. */
  async open(spec: RequestSpec): Promise<{ exchange: Exchange; response: Response }> {
    const controller = new AbortController();
    const signal = this.options.signal
      ? AbortSignal.any([this.options.signal, controller.signal])
      : controller.signal;
    const timer = setTimeout(
      () => controller.abort(new Error('no answer came within the request deadline')),
      this.options.requestTimeoutMs,
    );
    try {
      const { exchange, response, error } = await this.recorder.record(this.request(spec, signal));
      if (response === undefined)
        throw Object.assign(new Error(describeError(error, signal)), { exchange });
      return { exchange, response };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits `ms`, or less when the run is aborted. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const signal = this.options.signal;
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  #deadline(ms: number): AbortSignal {
    const timeout = AbortSignal.timeout(ms);
    return this.options.signal ? AbortSignal.any([this.options.signal, timeout]) : timeout;
  }
}

function checkOf(id: CheckId): (typeof CHECKS)[number] {
  return CHECKS.find((candidate) => candidate.id === id)!;
}

/**
 * The secrets of a header given: its value, and for a cookie each cookie's own value too, which a
 * service may well echo alone.
 */
function headerSecrets(name: string, value: string): Secret[] {
  const variable = `$TASKWIRE_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}` as const;
  const cookies =
    name === 'cookie'
      ? value
          .split(';')
          .map((pair) => pair.slice(pair.indexOf('=') + 1).trim())
          .filter((cookie) => cookie.length >= 4)
      : [];
  return [value, ...cookies].map((secret) => ({ value: secret, variable }));
}

/**
 * `result` as every output shows it: each secret replaced by its variable, each control character
 * escaped; the `curl` command keeps the line feeds between its own lines.
 */
function shownResult(result: CheckResult, secrets: readonly Secret[]): CheckResult {
  const copy: Record<string, unknown> = { ...result };
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value !== 'string') continue;
    const lines = key === 'curl' ? value.split('\n') : [value];
    copy[key] = lines.map((line) => escapeControl(redact(line, secrets))).join('\n');
  }
  return copy as unknown as CheckResult;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describeError(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'no answer within the request deadline';
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
  return `the request failed: ${error instanceof Error ? error.message : String(error)}${code}`;
}

/**
 * A short text of an answer for `observed`: its status and the start of its body, cut after its
 * secrets were hidden.
 */
export function describeAnswer(answer: Answer): string {
  if (answer.status === 0) return `no answer: ${answer.error ?? 'unknown error'}`;
  const type = answer.headers.get('content-type');
  const body = `${excerpt(answer.shown, 300, [])}${answer.tooLarge ? ` (${TOO_LARGE})` : ''}`;
  return `${answer.status}${type ? ` (${type})` : ''}${body === '' ? ', no body' : ` ${body}`}`;
}
