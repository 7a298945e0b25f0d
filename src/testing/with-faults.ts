/**
 * `withFaults`: the trouble of a real network, on purpose and on cue, in front of a service's
 * `fetch`: an error answer instead of serving, an answer served and then lost, a request that never
 * gets one, a slow answer, and a stream whose connection breaks after some events. Everything else
 * is the service's own answer, untouched.
 */
import type { Endpoint } from '../protocol/match-route.js';
import { errorAnswer, cutAfterEvents, networkError } from './fault-answers.js';
import { replaceFetch, routeOf, type FetchService } from './fetch-service.js';

/**
 * One rule of {@link withFaults}. It applies to the requests of `endpoint` (and of `task`, when
 * given), to the `request`-th of them only when `request` is given (counted from 1), and does what
 * its other members say: `status` answers an error without serving; `lostAnswer` serves, then fails
 * like a network error; `hang` never answers until the request is aborted; `delayMs` delays the
 * answer; `cutAfterEvents` breaks a stream after that many events.
 */
export interface Fault {
  /** The endpoint whose requests the rule counts and faults. */
  endpoint: Endpoint;
  /** Only requests for this task name. Defaults to every task. */
  task?: string;
  /** Only the n-th matching request, counted from 1. Defaults to every matching request. */
  request?: number;
  /**
   * Answers the error body `{ status: 'error', statusCode, reason, message }` with this HTTP status
   * (400–599), without passing the request to the service.
   */
  status?: number;
  /** The `reason` of the `status` answer. Defaults to the service's reason for that status. */
  reason?: string;
  /** With `status`: the `Retry-After` header of the answer, in seconds. */
  retryAfter?: number;
  /** The service serves the request, then the call rejects with a network error (`TypeError`). */
  lostAnswer?: boolean;
  /** The call never settles, and the service never sees the request, until the request's signal aborts. */
  hang?: boolean;
  /** Waits this many milliseconds (on the timers, so fake timers apply) before answering. */
  delayMs?: number;
  /** Lets exactly this many `data:` events of a stream through (comments not counted), then breaks it. */
  cutAfterEvents?: number;
}

const ENDPOINTS: readonly Endpoint[] = ['submit', 'result', 'stream', 'execute', 'options'];

/** Throws a `TypeError` naming the rule when it cannot be applied as written. */
function checkFault(fault: Fault, index: number): void {
  const where = `withFaults: fault ${index + 1}`;
  const problem = (() => {
    if (!ENDPOINTS.includes(fault.endpoint)) {
      return `names no endpoint (${ENDPOINTS.join(', ')})`;
    }
    if (fault.request !== undefined && !(Number.isInteger(fault.request) && fault.request >= 1)) {
      return 'has a request number that is not a whole number from 1';
    }
    if (
      fault.status !== undefined &&
      !(Number.isInteger(fault.status) && fault.status >= 400 && fault.status <= 599)
    ) {
      return 'has a status outside 400–599';
    }
    if (fault.retryAfter !== undefined && fault.status === undefined) {
      return 'has retryAfter without a status';
    }
    if (
      fault.retryAfter !== undefined &&
      !(Number.isInteger(fault.retryAfter) && fault.retryAfter >= 0)
    ) {
      return 'has a retryAfter that is not a whole number of seconds';
    }
    if (fault.delayMs !== undefined && !(Number.isFinite(fault.delayMs) && fault.delayMs >= 0)) {
      return 'has a negative or infinite delayMs';
    }
    if (fault.cutAfterEvents !== undefined) {
      if (fault.endpoint !== 'stream') return 'cuts events of an endpoint that is no stream';
      if (!(Number.isInteger(fault.cutAfterEvents) && fault.cutAfterEvents >= 0)) {
        return 'has a cutAfterEvents that is not a whole number from 0';
      }
    }
    const outcomes = [
      fault.status !== undefined,
      fault.lostAnswer === true,
      fault.hang === true,
      fault.cutAfterEvents !== undefined,
    ].filter(Boolean).length;
    if (outcomes > 1) return 'combines more than one of status, lostAnswer, hang, cutAfterEvents';
    if (outcomes === 0 && fault.delayMs === undefined) return 'names no fault';
    return undefined;
  })();
  if (problem !== undefined) throw new TypeError(`${where} ${problem}.`);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The answer of `service` to `request` under `fault`. */
async function answerWith(
  service: FetchService,
  request: Request,
  fault: Fault,
): Promise<Response> {
  const { signal } = request;
  if (fault.hang) {
    await new Promise<never>((_resolve, reject) => {
      if (signal.aborted) reject(signal.reason as Error);
      else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
  }
  if (fault.status !== undefined) {
    if (fault.delayMs !== undefined) await wait(fault.delayMs, signal);
    return errorAnswer(fault.endpoint, fault.status, fault.reason, fault.retryAfter);
  }
  const response = await service.fetch(request);
  if (fault.lostAnswer) {
    await response.body?.cancel();
    throw networkError();
  }
  if (fault.delayMs !== undefined) {
    try {
      await wait(fault.delayMs, signal);
    } catch (error) {
      await response.body?.cancel();
      throw error;
    }
  }
  return fault.cutAfterEvents === undefined
    ? response
    : cutAfterEvents(response, fault.cutAfterEvents);
}

/**
 * A service of the same shape as `service` whose `fetch` applies `faults`. Every rule
 * counts the requests of its endpoint and task (the method that endpoint takes; CORS preflights do
 * not count); when several rules apply to one request, the first of them in `faults` is the one
 * used. Every other member of the service is the original's. Throws a `TypeError` for a rule that
 * cannot be applied as written (an unknown endpoint, a status outside 400–599, `cutAfterEvents` on
 * an endpoint that is no stream, two outcomes in one rule, no fault at all).
 */
export function withFaults<Service extends FetchService>(
  service: Service,
  faults: readonly Fault[],
): Service {
  faults.forEach(checkFault);
  const rules = faults.map((fault) => ({ fault: { ...fault }, seen: 0 }));
  const fetch = (request: Request): Promise<Response> => {
    const route = routeOf(request);
    let chosen: Fault | undefined;
    if (route !== undefined) {
      for (const rule of rules) {
        const { fault } = rule;
        if (fault.endpoint !== route.endpoint) continue;
        if (fault.task !== undefined && fault.task !== route.taskName) continue;
        rule.seen += 1;
        if (fault.request === undefined || fault.request === rule.seen) chosen ??= fault;
      }
    }
    return chosen === undefined ? service.fetch(request) : answerWith(service, request, chosen);
  };
  return replaceFetch(service, fetch, {});
}
