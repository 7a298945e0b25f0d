/**
 * The client's activity feed (docs/protocol.md, "The activity feed"): the code that builds each
 * activity from what the client reported raw (`activity-feed.ts`) and calls the listeners.
 */
import { TaskwireError } from './errors.js';
import type {
  ActivityCall,
  AnswerActivity,
  RawActivity,
  StreamEventActivity,
  TaskwireActivity,
  TaskwireActivityListener,
} from './activity-types.js';

/** The listener's name in what `console.error` logs when it throws. */
const LISTENER_THREW = 'taskwire: a client.subscribe listener threw; the call goes on.';

/**
 * Builds one activity and calls every listener with it. What a listener throws is logged, never
 * rethrown: a logging hook must not break the call it watches, nor fail unseen.
 */
export function deliver(listeners: ReadonlySet<TaskwireActivityListener>, raw: RawActivity): void {
  const activity = buildActivity(raw);
  if (activity === undefined) return;
  for (const listener of listeners) {
    try {
      listener(activity);
    } catch (error) {
      console.error(LISTENER_THREW, error);
    }
  }
}

/**
 * The activity of a raw report, built from the values each part of the client passed, never from
 * a request's headers, so no token can reach it. A rejection that is not a `TaskwireError` (none
 * should be) is not reported.
 */
function buildActivity(raw: RawActivity): TaskwireActivity | undefined {
  const record = raw[1];
  const call: ActivityCall = {
    call: record.call,
    operation: record.operation,
    task: String(record.task),
    taskId: record.taskId,
  };
  switch (raw[0]) {
    case 'request': {
      const [type, , { method, path, headers }, attempt, durationMs, outcome] = raw;
      const failed = TaskwireError.isInstance(outcome);
      return {
        ...call,
        type,
        method,
        path,
        attempt,
        status: failed ? undefined : outcome.status,
        durationMs,
        idempotencyKey: headers?.['idempotency-key'],
        error: failed ? outcome.code : undefined,
      };
    }
    case 'retry': {
      const [type, , { method, path }, status] = raw;
      return { ...call, type, reason: 'unauthorized', method, path, status };
    }
    case 'answer': {
      const answer = raw[2] as { id?: string };
      return {
        ...call,
        type: 'answer',
        taskId: answer.id ?? call.taskId,
        answer,
      } as AnswerActivity;
    }
    case 'event':
      return {
        ...call,
        type: 'event',
        operation: 'stream',
        event: raw[2] as StreamEventActivity['event'],
      };
    case 'error': {
      const error = raw[2];
      if (!TaskwireError.isInstance(error)) return undefined;
      return {
        ...call,
        type: 'error',
        taskId: error.taskId ?? call.taskId,
        code: error.code,
        reason: error.reason,
        status: error.status,
        message: error.message,
        retryable: error.retryable,
      };
    }
    default:
      return raw[0] satisfies never;
  }
}
