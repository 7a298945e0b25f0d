'use client';
import { useQueries } from '@tanstack/react-query';
import { useEffect } from 'react';
import { completionNoticeQueries } from '../query/completion-notice-queries.js';
import type { PollingPolicyOptions } from '../state/polling-policy.js';
import { attachTitleRestore, noticeTaskEnded } from '../state/completion-notice.js';
import { useJournalSession, useTaskClient } from './taskwire-provider.js';
import { useTaskJournal } from './use-task-journal.js';

/** Options of {@link useCompletionNotice}. */
export interface UseCompletionNoticeOptions {
  /** `false` turns the notices, and the polling in the background, off. Defaults to `true`. */
  enabled?: boolean;
  /**
   * The polling schedule of the journal's running tasks (see `PollingPolicyOptions`); the same as a
   * `useTaskResult` of the task gets by default, so the two share one poll. While the page is hidden
   * a task is polled at the ceiling, `maxIntervalMs` (10 s by default), or slower after errors.
   */
  polling?: PollingPolicyOptions;
}

/**
 * Tells the user when a task of the provider's journal (this client's scope) ends, COMPLETED or
 * FAILED, while the page is hidden: a system notification, once per task, if the app already has
 * the permission (see `requestNotificationPermission`; this hook never asks), else the count of
 * such tasks before the document title (`(2) My app`) until the page is visible again. While it is
 * enabled, the journal's running tasks are polled, also while the page is hidden (then at the
 * policy's ceiling), sharing the poll of any `useTaskResult` of the same task. Without a journal it
 * does nothing.
 */
export function useCompletionNotice(options: UseCompletionNoticeOptions = {}): void {
  const { enabled = true, polling } = options;
  const session = useJournalSession();
  const journal = session?.journal;
  const client = useTaskClient();
  const { entries } = useTaskJournal();

  useQueries({
    queries: enabled ? completionNoticeQueries(client, entries, polling, journal) : [],
  });

  // The session reports each task of its scope seen running that ends, once (src/state).
  useEffect(() => {
    if (!enabled || !session) return;
    return session.watchCompletions(noticeTaskEnded);
  }, [enabled, session]);

  useEffect(() => {
    if (!enabled) return;
    return attachTitleRestore();
  }, [enabled]);
}
