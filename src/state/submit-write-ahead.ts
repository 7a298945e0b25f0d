/**
 * The journal's part in a Submit started under a `resumeKey` (docs/protocol.md, "The hooks", on
 * the journal), framework-free: `useSubmitTask` adapts it. The start, with its idempotency key and body, is
 * stored only once the Submit has passed the client's own checks, just before it is sent, and it
 * lives no longer than its request: the task's entry replaces it when the answer arrives, and an
 * error the page shows forgets it, body and all. So the only start ever left is one cut before any
 * answer reached the page (a reload mid-request), which the next mount sends again under the same
 * idempotency key: one task, one charge, and never a Submit the user saw fail.
 */
import { checkedPost } from '../client/call-checks.js';
import type { TaskStatus } from '../protocol/records.js';
import type { TaskSchemas } from '../protocol/task-schemas.js';
import type { TaskJournal } from './task-journal.js';

/** One Submit, as it is sent and as a start keeps it. */
export interface WriteAheadSubmit {
  /** The task's params. */
  params: unknown;
  /** The notification request, if any. */
  notification?: unknown;
  /** The idempotency key the Submit carries. */
  idempotencyKey: string;
}

/** Where a {@link SubmitWriteAhead} keeps its starts, and what it checks them against. */
export interface SubmitWriteAheadOptions {
  /** The provider's journal. */
  journal: TaskJournal;
  /** The client's scope. */
  scope: string;
  /** The `resumeKey` the Submits are started under. */
  key: string;
  /** The task name. */
  task: string;
  /** The client's task map, whose params schemas the client checks before sending. */
  tasks: TaskSchemas | undefined;
}

/** The write-ahead of the Submits of one `resumeKey`. */
export interface SubmitWriteAhead {
  /**
   * Runs the client's own checks on the Submit, then stores its start. Throws what the checks
   * refuse (or a key the journal cannot store), having stored nothing.
   */
  beforeSend(submit: WriteAheadSubmit): void;
  /**
   * The answer to the Submit of `params` arrived: the task's entry replaces the start, whose body
   * leaves the storage; the params stay with the entry if the journal keeps params.
   */
  answered(answer: { id: string; status: TaskStatus }, params: unknown): void;
  /**
   * The Submit under `idempotencyKey` ended in an error the page shows (`undefined` when it never
   * got as far as its start): its start is forgotten, body and all.
   */
  failed(idempotencyKey: string | undefined): void;
  /** The Submit a reload cut before any answer reached the page, to send again, or `undefined`. */
  cutByReload(): WriteAheadSubmit | undefined;
}

/** Creates the {@link SubmitWriteAhead} of one `resumeKey`. */
export function createSubmitWriteAhead({
  journal,
  scope,
  key,
  task,
  tasks,
}: SubmitWriteAheadOptions): SubmitWriteAhead {
  const startOfKey = () =>
    journal.starts(scope).find((start) => start.key === key && start.task === task);
  return {
    beforeSend({ params, notification, idempotencyKey }) {
      const extra = notification === undefined ? {} : { notification };
      // The client runs the same checks again as it sends; a Submit they refuse stores nothing.
      checkedPost(tasks, task, params, extra);
      journal.begin(scope, {
        key,
        task,
        mode: 'submit',
        startedAt: Date.now(),
        idempotencyKey,
        body: { params, ...extra },
      });
    },
    answered({ id, status }, params) {
      journal.record(scope, {
        key,
        task,
        id,
        mode: 'submit',
        status,
        startedAt: Date.now(),
        params,
      });
    },
    failed(idempotencyKey) {
      // Only this Submit's start: a later one under the same key may be on its way.
      if (idempotencyKey !== undefined && startOfKey()?.idempotencyKey === idempotencyKey)
        journal.forgetStart(scope, key);
    },
    cutByReload() {
      const start = startOfKey();
      if (start?.mode !== 'submit' || !start.body || start.idempotencyKey === undefined)
        return undefined;
      const { params, notification } = start.body;
      return {
        params,
        ...(notification === undefined ? {} : { notification }),
        idempotencyKey: start.idempotencyKey,
      };
    },
  };
}
