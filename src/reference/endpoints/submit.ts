/**
 * Submit (docs/protocol.md, "Submit"): creates a task and answers 202 at once with its id and where
 * to read its result, honouring an `Idempotency-Key` (docs/protocol.md, "Idempotency").
 */
import { canonicalJson } from '../../protocol/canonical-json.js';
import type { NotificationRequest } from '../../protocol/notification.js';
import { successResponse } from '../json-response.js';
import type { ParsedBody } from '../parse-json-body.js';
import type { ServiceContext, TaskCall } from '../service-context.js';
import { ServiceError } from '../service-error.js';

/** What a Submit brings besides the checked call. */
export interface Submission {
  /** The body as sent, whose params and notification make the idempotency fingerprint. */
  body: ParsedBody;
  /** The notification asked for, already checked. */
  notification: NotificationRequest | undefined;
  /** The `Idempotency-Key` header, already checked, or `undefined` when none was sent. */
  idempotencyKey: string | undefined;
}

/** The path of Get Result for task `id` of `taskName`. */
function resultPath(basePath: string, taskName: string, id: string): string {
  return `${basePath}/workflows/${encodeURIComponent(taskName)}/${encodeURIComponent(id)}/result`;
}

/**
 * Answers Submit: 202 with the id of a new task, or of the task an earlier Submit with the same
 * `Idempotency-Key` and body created; throws 422 `IDEMPOTENCY_KEY_REUSED` when the key came with
 * another body.
 */
export function answerSubmit(
  context: ServiceContext,
  call: TaskCall,
  { body, notification, idempotencyKey }: Submission,
): Response {
  const taskName = call.definition.name;
  const accepted = (id: string) =>
    successResponse(
      202,
      { id, status: 'ACCEPTED' },
      { location: resultPath(context.basePath, taskName, id), 'x-task-id': id },
    );
  // From here to the end nothing awaits, so concurrent copies of one request cannot both miss
  // the key and create two tasks.
  let fingerprint: string | undefined;
  if (idempotencyKey !== undefined) {
    fingerprint = canonicalJson({ params: body.params, notification: body.notification ?? null });
    const existing = context.idempotency.get(call.userId, taskName, idempotencyKey);
    if (existing !== undefined) {
      if (existing.fingerprint !== fingerprint) {
        throw new ServiceError(
          422,
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used for a different body.',
        );
      }
      return accepted(existing.taskId);
    }
  }
  const run = context.createRun(call, notification);
  if (idempotencyKey !== undefined && fingerprint !== undefined) {
    context.idempotency.set(call.userId, taskName, idempotencyKey, fingerprint, run.id);
  }
  context.scheduler.enqueue(run);
  return accepted(run.id);
}
