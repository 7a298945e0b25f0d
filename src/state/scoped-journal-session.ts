/**
 * The journal session a binding's provider (React's `TaskwireProvider`, Vue's `TaskwirePlugin`)
 * gives its hooks: one per journal and client scope, and none for a client whose scope was not set
 * explicitly, since a journal keeps tasks per user and two users of one browser must never see each
 * other's tasks (docs/protocol.md, "The hooks", on the journal).
 */
import { TaskwireError } from '../client/errors.js';
import type { TaskClient } from '../client/types.js';
import type { TaskSchemas } from '../protocol/task-schemas.js';
import { journalSession, type JournalSession } from './journal-session.js';
import type { TaskJournal } from './task-journal.js';

/**
 * The session of `journal` for `client`'s scope, or `undefined` without a journal. Reads nothing:
 * the session reads storage only once a hook subscribes.
 *
 * @throws TaskwireError (`protocol`, `SCOPE_REQUIRED`) when given a journal and a client whose
 * `scope` was not set explicitly; `host` names the provider in the message.
 */
export function scopedJournalSession(
  journal: TaskJournal | undefined,
  client: Pick<TaskClient<TaskSchemas>, 'scope' | 'scopeIsExplicit'>,
  host: string,
): JournalSession | undefined {
  if (!journal) return undefined;
  if (!client.scopeIsExplicit) {
    throw new TaskwireError(
      'protocol',
      `${host} was given a journal, but the client has no scope of its own: a journal keeps tasks per user, so set createTaskClient({ scope }) to the signed-in user’s id.`,
      { reason: 'SCOPE_REQUIRED', retryable: false },
    );
  }
  return journalSession(journal, client.scope);
}
