/**
 * Submit (docs/protocol.md, "Submit"): creates a task and answers 202 at once with its id and where
 * to read its result, honouring an `Idempotency-Key` (docs/protocol.md, "Idempotency").
 */
import { taskPath } from '../../protocol/match-route.js';
import type { NotificationRequest } from '../../protocol/notification.js';
import { successResponse } from '../json-response.js';
import type { ServiceContext, TaskCall } from '../service-context.js';
import { ServiceError } from '../service-error.js';

/** An `Idempotency-Key` and the fingerprint of the body it came with. */
export interface IdempotentSubmission {
  /** The `Idempotency-Key` header, already checked. */
  key: string;
  /** The digest of the body's params and notification (`submitFingerprint`). */
  fingerprint: string;
}

/** What a Submit brings besides the checked call. */
export interface Submission {
  /** The notification asked for, already checked. */
  notification: NotificationRequest | undefined;
  /** The key and body fingerprint, or `undefined` when no `Idempotency-Key` was sent. */
  idempotency: IdempotentSubmission | undefined;
}

/**
 * Answers Submit: 202 with the id of a new task, or of the task an earlier Submit with the same
 * `Idempotency-Key` and body created; throws 422 `IDEMPOTENCY_KEY_REUSED` when the key came with
 * another body, and whatever `createRun` throws (429 `TOO_MANY_TASKS`) for a new task.
 */
export function answerSubmit(
  context: ServiceContext,
  call: TaskCall,
  { notification, idempotency }: Submission,
): Response {
  const taskName = call.definition.name;
  const accepted = (id: string) =>
    successResponse(
      202,
      { id, status: 'ACCEPTED' },
      { location: context.basePath + taskPath('result', taskName, id), 'x-task-id': id },
    );
  // From here to the end nothing awaits, so concurrent copies of one request cannot both miss
  // the key and create two tasks. A repeat is answered before the user's share is checked: it
  // creates nothing, so a user at the limit still gets the first answer again.
  if (idempotency !== undefined) {
    const existing = context.idempotency.get(call.userId, taskName, idempotency.key);
    if (existing !== undefined) {
      if (existing.fingerprint !== idempotency.fingerprint) {
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
  if (idempotency !== undefined) {
    context.idempotency.set(
      call.userId,
      taskName,
      idempotency.key,
      idempotency.fingerprint,
      run.id,
    );
  }
  context.scheduler.enqueue(run);
  return accepted(run.id);
}
