/**
 * What the hooks use of a client's resumable streams (docs/protocol.md, "Resumable streams
 * (0.4)"), kept off the public `TaskClient`: whether the service offers them, the multiplexed read,
 * and the short start. Reached through {@link resumableReadsOf}; no package entry exports it, and
 * an app bundles it only when its hooks use it.
 */
import { prefersRespondAsync, RESPOND_ASYNC } from '../protocol/resumable-streams.js';
import { taskPath } from '../protocol/match-route.js';
import type { FollowedTask } from '../protocol/follow-schemas.js';
import { envelopeSchema } from '../protocol/records.js';
import { isTaskId } from '../protocol/names.js';
import { submitAnswerSchema } from '../protocol/start-answers.js';
import { randomUuid } from '../protocol/random-uuid.js';
import { withDeadline } from './abort.js';
import { protocolError, requestTimeout } from './error-factories.js';
import { checkTaskName, requestBody } from './call-checks.js';
import { badTaskIdHeader, readEnvelope } from './read-answer.js';
import { send } from './request.js';
import { clientInternalsOf } from './client-internals.js';
import { followTasks, type FollowMessage } from './stream/follow-tasks.js';

/** The short start's answer: the task's id, and whether the service started it detached. */
export interface DetachedStart {
  /** The task id. */
  id: string;
  /**
   * `true` when the service answered 202 (`Preference-Applied: respond-async`); `false` when it
   * answered with a stream all the same, which was closed (the task runs on; read it).
   */
  detached: boolean;
}

/** The resumable side of a client. */
export interface ResumableReads {
  /** Whether any answer of the service so far said it offers resumable streams. */
  readonly offered: boolean;
  /**
   * One connection for every task a page follows, each message checked as its task's stream
   * would be; see `followTasks`.
   */
  follow<Event = unknown>(
    tasks: readonly FollowedTask[],
    options?: { signal?: AbortSignal; onOpen?: () => void },
  ): AsyncGenerator<FollowMessage<Event>, undefined, undefined>;
  /**
   * Starts a stream with a short request (`Prefer: respond-async`, sent only to a service that
   * said it offers resumable streams, with an `Idempotency-Key`: the given one, or a fresh one):
   * resolves to the task's id once the service accepted it. Rejects like Submit.
   */
  startDetached(
    task: string,
    params: unknown,
    options?: { idempotencyKey?: string; signal?: AbortSignal },
  ): Promise<DetachedStart>;
}

const submitEnvelope = envelopeSchema(submitAnswerSchema);

/**
 * The resumable side of `client`, or `undefined` for an object that is no taskwire client. Built
 * here, off the client's public face, so that only the layers that use it bundle it.
 */
export function resumableReadsOf(client: object): ResumableReads | undefined {
  const internals = clientInternalsOf(client);
  if (internals === undefined) return undefined;
  const { context, idleTimeoutMs, requestTimeoutMs, maxEventBytes, schemaOf, tracked } = internals;
  return {
    get offered() {
      return context.service.resumable;
    },
    follow(tasks, options = {}) {
      return followTasks(
        { context, idleTimeoutMs, maxEventBytes },
        { tasks, schemaOf, signal: options.signal, onOpen: options.onOpen },
      );
    },
    startDetached(task, params, options = {}) {
      const headers: Record<string, string> = {
        'idempotency-key': options.idempotencyKey ?? randomUuid(),
      };
      // Only a service that said so is asked: a 0.3 service's CORS may not allow `Prefer`.
      if (context.service.resumable) headers.prefer = RESPOND_ASYNC;
      const what = `The answer to the short start of '${String(task)}'`;
      return tracked('stream', task, (call) =>
        withDeadline(
          options.signal,
          requestTimeoutMs,
          () => requestTimeout(what, requestTimeoutMs),
          async (signal) => {
            const name = checkTaskName(task);
            const sent = await send(context, {
              method: 'POST',
              path: taskPath('stream', name),
              body: requestBody(schemaOf(name)?.params, name, params),
              accept: 'application/json, text/event-stream',
              headers,
              signal,
              call,
            });
            const { response } = sent;
            if (response.ok && !prefersRespondAsync(response.headers.get('preference-applied'))) {
              // The service streamed all the same: the task runs; its id is all that is needed.
              const id = response.headers.get('x-task-id');
              await response.body?.cancel().catch(() => undefined);
              if (id === null) throw protocolError(what, 'a stream answer without x-task-id.');
              if (!isTaskId(id)) throw badTaskIdHeader(what);
              call.taskId = id;
              return { id, detached: false };
            }
            const read = { signal, what, maxBytes: context.maxResponseBytes };
            const answer = await readEnvelope(sent, submitEnvelope, read);
            call.taskId = answer.response.id;
            return { id: answer.response.id, detached: true };
          },
        ),
      );
    },
  };
}
