/**
 * The outside of `checkService` (docs/checking-your-service.md): its options, and the report it resolves to.
 */
import type { JsonObject } from '../protocol/records.js';
import type { CheckId, CheckLevel } from './check-catalogue.js';

/**
 * How a check ended: `pass`; `fail`, a rule the client relies on is broken; `warn`, a rule of
 * taskwire's own contract is broken, which does not fail the run; or `skipped` (it could not be
 * run, and says why).
 */
export type CheckOutcome = 'pass' | 'fail' | 'warn' | 'skipped';

/** The outcome of one check. */
export interface CheckResult {
  /** A stable id, such as `stream.keep-alive`; docs/checking-your-service.md explains each. */
  id: CheckId;
  /** The rule checked, as one sentence. */
  title: string;
  /** Where the rule is written: a link into the package's docs/protocol.md by heading. */
  rule: string;
  /** Whether the client relies on the rule (`required`) or it is taskwire's own (`contract`). */
  level: CheckLevel;
  /** Whether the service kept the rule. */
  outcome: CheckOutcome;
  /** Why a skipped check could not be run (what to give it so that it can). */
  why?: string;
  /** What a passed check saw, where that helps (`no Retry-After was sent`). */
  note?: string;
  /** What the rule asks for, on a failure or a warning. */
  expected?: string;
  /** What came instead, on a failure or a warning. */
  observed?: string;
  /**
   * A `curl` command that sends the request that showed the failure or warning, its tokens written
   * as `$TASKWIRE_USER_TOKEN`, `$TASKWIRE_CLIENT_TOKEN` and `$TASKWIRE_OTHER_USER_TOKEN`, and the
   * value of each header given as `$TASKWIRE_HEADER_<NAME>`.
   */
  curl?: string;
}

/** What `checkService` found. */
export interface CheckReport {
  /** The base URL checked. */
  baseUrl: string;
  /** The task the checks started. */
  task: string;
  /** Its params. */
  params: JsonObject;
  /** Every check, in the catalogue's order. */
  results: CheckResult[];
  /** How many passed. */
  passed: number;
  /** How many failed: rules the client relies on. */
  failed: number;
  /** How many warned: rules of taskwire's own contract, which do not fail the run. */
  warned: number;
  /** How many were skipped. */
  skipped: number;
  /** How many tasks the run started on the service (never more than 20). */
  tasksStarted: number;
  /** How long the run took, in milliseconds. */
  durationMs: number;
}

/** Reported to `onProgress` as each check ends. */
export interface CheckProgress {
  /** The check that just ended. */
  result: CheckResult;
  /** How many checks have ended so far. */
  done: number;
  /** How many checks there are in all. */
  total: number;
}

/** A task and its params, for the keep-alive check. */
export interface SilentTask {
  /** The task's name. */
  task: string;
  /** Its params. Defaults to `{}`. */
  params?: JsonObject;
}

/** Options of `checkService`. */
export interface CheckServiceOptions {
  /** The service's base URL (or its proxy's), such as `https://tasks.example.com/api`. */
  baseUrl: string;
  /** A user token the service knows, sent as `Authorization: Bearer …`. */
  userToken: string;
  /**
   * The app's token, sent as `x-app-authorization: Bearer …`. Leave it out to check a proxy that
   * adds it on the server (taskwire/server); `auth.no-client-token` is then skipped.
   */
  clientToken?: string;
  /** A second user's token, for `result.other-user`; without it that check is skipped. */
  otherUserToken?: string;
  /**
   * The task the checks start (four times: by Submit, Stream, Execute, and Execute with
   * `failingParams`). Defaults to `render-video`, the reference service's demo task with
   * progress, partial results, custom events and a charge.
   */
  task?: string;
  /**
   * The task's params. Defaults to `{ frames: 6, frameMs: 150 }` for the default task (about a
   * second), else `{}`.
   */
  params?: JsonObject;
  /**
   * Params of the task that make it fail (pass the service's checks of params, then end FAILED),
   * for `execute.failed`. Defaults, for the default task, to its params with `failAtFrame: 1`
   * (render-video fails at its first frame); for another task, none, and that check is skipped.
   */
  failingParams?: JsonObject;
  /**
   * A task whose stream stays silent for longer than `keepAliveMs`, for `stream.keep-alive`; without
   * it that check is skipped (no demo task of the reference service is silent for 15 s).
   */
  keepAliveTask?: SilentTask;
  /**
   * The app's origin, sent as `Origin` on every request as a browser on the app's page would. When
   * it is the base URL's own origin (a proxy on the app's server), the CORS checks are skipped.
   * Defaults to `http://localhost:5173`.
   */
  origin?: string;
  /**
   * Headers sent on every request but the CORS preflights (a browser sends those without them), such
   * as `platform` and `x-touchpoint` for a service that requires them, or the cookie of a proxy that
   * signs users in by cookie. Their values are hidden in every output like the tokens, as
   * `$TASKWIRE_HEADER_<NAME>` (`$TASKWIRE_HEADER_X_TOUCHPOINT`). The headers the checks set
   * themselves (the tokens, `content-type`, `origin`, `idempotency-key`) cannot be given here.
   * Defaults to none.
   */
  headers?: Record<string, string>;
  /** The `fetch` to send requests with: the global one by default, or a service's in-process `fetch`. */
  fetch?: (request: Request) => Promise<Response>;
  /** Called as each check ends, for a progress display. */
  onProgress?: (progress: CheckProgress) => void;
  /** Aborts the run. */
  signal?: AbortSignal;
  /**
   * The deadline of the whole run, in milliseconds: past it every request is aborted and the run
   * rejects with a `timeout` `TaskwireError`, however the service stalls. Defaults to `120000`.
   */
  runTimeoutMs?: number;
  /** Milliseconds between two Get Result reads of a running task. Defaults to `1000`, the hooks' floor. */
  pollIntervalMs?: number;
  /** How long a started task may take to end, in milliseconds. Defaults to `60000`. */
  taskTimeoutMs?: number;
  /** The deadline of one request that is not a stream, in milliseconds. Defaults to `30000`. */
  requestTimeoutMs?: number;
  /**
   * The longest silence a stream may keep, in milliseconds; a fifth more is allowed for the network.
   * Defaults to `15000` (docs/protocol.md, "Streams").
   */
  keepAliveMs?: number;
  /**
   * Execute's limit, in milliseconds: the interface document's 20 s, by which Execute answers the
   * outcome or times out (a twentieth more is allowed for the network; past a quarter more the
   * check stops waiting, as the client does). Change it only for a service whose limit is shorter.
   * Defaults to `20000`.
   */
  executeDeadlineMs?: number;
  /** How soon after its final event a stream must close, in milliseconds. Defaults to `5000`. */
  closeWithinMs?: number;
}
