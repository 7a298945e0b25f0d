/**
 * Entry statuses follow the records (docs/protocol.md, "The hooks", on the journal): every record a
 * Get Result query of the session's scope holds, read by a poll, another tab or a stream, goes into
 * the journal entry of its task. The one place it happens, owned by the binding's provider or
 * plugin, so an app without a journal pays nothing.
 */
import type { QueryCache } from '@tanstack/query-core';
import type { TaskRecord } from '../protocol/records.js';
import type { JournalSession } from '../state/journal-session.js';

/** Takes the status of every task record `queryCache` holds for `session`'s scope into its entry; returns the stop. */
export function followRecordStatuses(queryCache: QueryCache, session: JournalSession): () => void {
  return queryCache.subscribe(({ query }) => {
    const [root, queryScope, kind, , id] = query.queryKey as unknown[];
    const record = query.state.data as TaskRecord | undefined;
    if (root !== 'taskwire' || queryScope !== session.scope || kind !== 'result' || !record) return;
    if (typeof id === 'string') session.noteStatus(id, record.status);
  });
}
