/**
 * What the proxy does with its event log (docs/protocol.md, "Resumable streams (0.4)"): a stream
 * the service answered is relayed into the log (to its end, whether or not the page reads it), and
 * the page that started it is handed each message with its position once the log took it; a short
 * start is answered 202 once the service gave the task's id, one task per `Idempotency-Key`; and the
 * two reads are served from the log, to the log's owner only.
 */
import type { EventLog, EventLogKey } from '../events/event-log.js';
import { answerBatches, readResponse } from '../events/read-answers.js';
import { canonicalJson } from '../protocol/canonical-json.js';
import { offersResumableStreams } from '../protocol/resumable-streams.js';
import { proxyAccepted, proxyError } from './proxy-answers.js';
import { relayIntoLog } from './relay-into-log.js';
import { createRelayTail, type RelayTail } from './relay-tail.js';
import { sha256 } from './log-owner.js';

/**
 * The longest silence of a read from the log: 15 s (docs/protocol.md, "Streams"), or a third of
 * the proxy's `streamIdleTimeoutMs` when that is shorter, so that a page whose idle limit is set
 * alike never takes a silent task for a dead connection.
 */
export function proxyKeepAliveMs(streamIdleTimeoutMs: number): number {
  return Math.min(15_000, streamIdleTimeoutMs / 3);
}

/** A stream the service answered, to be relayed into the log. */
export interface LoggedStream {
  /** The log. */
  log: EventLog;
  /** The task (the id from the service's `x-task-id`). */
  key: EventLogKey;
  /** Who reads it: the user's log owner. */
  owner: string;
  /** The service's answer (200, an event stream). */
  response: Response;
  /** The service's silence, keep-alives counting, past which the relay gives up. */
  idleTimeoutMs: number;
  /** Aborts the service's request. */
  abortUpstream(): void;
  /** Keeps the relay running on a host that ends work with the answer (`waitUntil`). */
  keepRunning: ((work: Promise<unknown>) => void) | undefined;
  /** Whether a page waits for the stream (not a short start): then it reads the relay's tail. */
  pageWaits: boolean;
}

/** A relay that runs, with its tail when a page waits for it. */
export interface StartedRelay {
  /** What the page that started the stream reads; `undefined` for a short start. */
  tail: RelayTail | undefined;
}

/**
 * Starts relaying `stream` into its log, or answers `undefined` when the log cannot take it (the
 * store failed): then the caller relays the service's stream as it came. Resolves once the task's
 * log exists and the relay runs.
 */
export async function startLogRelay(stream: LoggedStream): Promise<StartedRelay | undefined> {
  const body = stream.response.body;
  if (body === null) return undefined;
  const created = await stream.log.create(stream.key, stream.owner).catch(() => false);
  if (!created) return undefined;
  // The tail exists before the relay appends anything, so the page misses nothing.
  const tail = stream.pageWaits ? createRelayTail(stream.log, stream.key, stream.owner) : undefined;
  const relaying = relayIntoLog({
    log: stream.log,
    key: stream.key,
    body,
    upstreamResumable: offersResumableStreams(stream.response.headers),
    idleTimeoutMs: stream.idleTimeoutMs,
    abortUpstream: stream.abortUpstream,
    watcher: tail,
  });
  stream.keepRunning?.(relaying);
  return { tail };
}

/**
 * The page's stream from its first message, with positions: what the relay appended, handed over
 * as the log took it (the page reads the log itself only once it fell behind the relay).
 */
export function answerFromRelay(
  tail: RelayTail,
  key: EventLogKey,
  read: { keepAliveMs: number; signal: AbortSignal },
): Response {
  return readResponse(
    answerBatches((signal) => tail.batches(signal), read),
    {
      'x-task-id': key.taskId,
      // Neither a compressing server (Next.js) nor a buffering one in front (nginx) may hold
      // events back.
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  );
}

/** What a short start with an `Idempotency-Key` found in the log. */
export type ShortStartClaim =
  | { kind: 'first'; record(taskId: string): Promise<void>; release(): Promise<void> }
  | { kind: 'repeat'; answer: Response }
  | { kind: 'unclaimed' };

/**
 * Claims an `Idempotency-Key` of a short start for its user and task, in the log itself (a small log
 * of its own holds the task id the first start got, so every server sharing the store agrees, for
 * as long as the store keeps it): the first start goes on to the service and records its task's
 * id; a repeat with the same body is answered that id (waiting for the first at most `waitMs`), one
 * with another body 422 `IDEMPOTENCY_KEY_REUSED`.
 */
export async function claimShortStart(
  log: EventLog,
  owner: string,
  taskName: string,
  idempotencyKey: string,
  body: Uint8Array,
  location: (taskId: string) => string,
  waitMs: number,
): Promise<ShortStartClaim> {
  let fingerprint: string;
  try {
    fingerprint = await sha256(canonicalJson(JSON.parse(new TextDecoder().decode(body))));
  } catch {
    // Not JSON: the service refuses it, and there is no task to share.
    return { kind: 'unclaimed' };
  }
  const key = { taskName, taskId: `idempotency:${await sha256(`${owner}\0${idempotencyKey}`)}` };
  const created = await log.create(key, owner).catch(() => undefined);
  if (created === undefined) return { kind: 'unclaimed' };
  if (created) {
    return {
      kind: 'first',
      record: (taskId) =>
        log.append(key, [JSON.stringify({ taskId, fingerprint })], true).then(() => undefined),
      release: () => log.abandon(key),
    };
  }
  const signal = AbortSignal.timeout(waitMs);
  const read = await log.read(key, owner, undefined, signal).catch(() => undefined);
  if (read?.status === 'ok') {
    try {
      for await (const [entry] of read.batches) {
        if (entry === undefined) continue;
        const first = JSON.parse(entry.message) as { taskId: string; fingerprint: string };
        if (first.fingerprint !== fingerprint) {
          return {
            kind: 'repeat',
            answer: proxyError(
              422,
              'IDEMPOTENCY_KEY_REUSED',
              'This Idempotency-Key was used for a different body.',
            ),
          };
        }
        return { kind: 'repeat', answer: proxyAccepted(location(first.taskId), first.taskId) };
      }
    } catch {
      // The first start failed (its claim was released): this one starts the task itself.
    }
  }
  return { kind: 'unclaimed' };
}
