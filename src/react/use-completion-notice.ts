'use client';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { isTerminalStatus } from '../protocol/records.js';
import type { TaskName } from '../protocol/task-schemas.js';
import {
  isPageHidden as isHidden,
  slowestPollDelay,
  type PollingPolicyOptions,
} from '../state/polling-policy.js';
import type { TaskJournal, TaskJournalEntry } from '../state/task-journal.js';
import { taskResultQueryOptions } from './query-options.js';
import type { RegisteredTasks } from './register.js';
import { useProvidedJournal, useTaskClient } from './taskwire-provider.js';
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

/** What the page knows of one journal: the tasks seen running, and those already noticed. */
interface NoticeState {
  running: Set<string>;
  noticed: Set<string>;
}

// Per journal, for the life of the page, so remounts and several mounted hooks notice a task once.
const noticeStates = new WeakMap<TaskJournal, NoticeState>();

function noticeStateOf(journal: TaskJournal): NoticeState {
  let state = noticeStates.get(journal);
  if (!state) {
    state = { running: new Set(), noticed: new Set() };
    noticeStates.set(journal, state);
  }
  return state;
}

// The title prefix is one for the page, whichever hooks counted into it.
const title = { count: 0, original: '', shown: '', mounted: 0 };

function countInTitle(): void {
  // The app changed the title since: its new title is the one to restore.
  if (title.count === 0 || document.title !== title.shown) {
    title.count = 0;
    title.original = document.title;
  }
  title.count += 1;
  title.shown = `(${String(title.count)}) ${title.original}`;
  document.title = title.shown;
}

function restoreTitle(): void {
  if (title.count === 0) return;
  if (document.title === title.shown) document.title = title.original;
  title.count = 0;
}

const onVisibilityChange = () => {
  if (!isHidden()) restoreTitle();
};

/** Shows a system notification if the page may; `false` when it may not (or the browser refuses). */
function showNotification(entry: TaskJournalEntry): boolean {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  const failed = entry.status === 'FAILED';
  try {
    const notification = new Notification(`${entry.task} ${failed ? 'failed' : 'finished'}`, {
      body: failed ? 'The task did not complete.' : 'The task is done.',
      tag: entry.id,
    });
    notification.onclick = () => {
      window.focus();
      notification.close();
    };
    return true;
  } catch {
    // Some browsers (Chrome on Android) only show notifications through a service worker.
    return false;
  }
}

/**
 * Tells the user when a task of the provider's journal (this client's scope) ends, COMPLETED or
 * FAILED, while the page is hidden: a system notification, once per task, if the app already has
 * the permission (see {@link requestNotificationPermission}; this hook never asks), else the count of
 * such tasks before the document title (`(2) My app`) until the page is visible again. While it is
 * enabled, the journal's running tasks are polled, also while the page is hidden (then at the
 * policy's ceiling), sharing the poll of any `useTaskResult` of the same task. Without a journal it
 * does nothing.
 */
export function useCompletionNotice(options: UseCompletionNoticeOptions = {}): void {
  const { enabled = true, polling } = options;
  const journal = useProvidedJournal();
  const client = useTaskClient();
  const { entries } = useTaskJournal();
  const { scope } = client;

  const running = useMemo(
    () => (enabled ? entries.filter((entry) => !isTerminalStatus(entry.status)) : []),
    [enabled, entries],
  );
  useQueries({
    queries: running.map((entry) => {
      // A journal holds names as strings; the app's task map (Register) may be narrower.
      const name = entry.task as TaskName<RegisteredTasks>;
      const base = taskResultQueryOptions(client, name, entry.id, {
        ...(polling ? { polling } : {}),
        journal,
      });
      const ceiling = slowestPollDelay(polling);
      type PolicyInterval = Extract<typeof base.refetchInterval, (...args: never[]) => unknown>;
      return {
        ...base,
        refetchInterval: (query: Parameters<PolicyInterval>[0]) => {
          const delay =
            typeof base.refetchInterval === 'function'
              ? base.refetchInterval(query)
              : base.refetchInterval;
          // Read at every poll: hidden, the slowest pace; visible again, the policy's.
          return delay === false || delay === undefined || !isHidden()
            ? delay
            : Math.max(delay, ceiling);
        },
        refetchIntervalInBackground: true,
      };
    }),
  });

  useEffect(() => {
    if (!enabled || !journal) return;
    const state = noticeStateOf(journal);
    for (const entry of entries) {
      const key = `${scope}\u0000${entry.id}`;
      if (!isTerminalStatus(entry.status)) {
        state.running.add(key);
        continue;
      }
      // Only a task seen running in this page ends here; one that had ended before is no news.
      if (!state.running.delete(key) || state.noticed.has(key)) continue;
      state.noticed.add(key);
      if (isHidden() && !showNotification(entry)) countInTitle();
    }
  }, [enabled, journal, scope, entries]);

  useEffect(() => {
    if (!enabled || typeof document === 'undefined') return;
    if (title.mounted++ === 0) document.addEventListener('visibilitychange', onVisibilityChange);
    return () => {
      if (--title.mounted === 0) {
        document.removeEventListener('visibilitychange', onVisibilityChange);
        restoreTitle();
      }
    };
  }, [enabled]);
}

/**
 * Asks the user for the permission to show system notifications, and resolves to the answer;
 * `'denied'` where the browser has no Notification API. Browsers only ask from a user gesture: call
 * it in a click handler (a "Notify me" button), never on load. {@link useCompletionNotice} never
 * asks by itself.
 */
export function requestNotificationPermission(): Promise<NotificationPermission> {
  if (typeof Notification === 'undefined' || typeof Notification.requestPermission !== 'function')
    return Promise.resolve('denied');
  return new Promise<NotificationPermission>((resolve) => {
    try {
      // Older Safari answers through a callback and returns nothing.
      const answer = Notification.requestPermission(resolve) as
        Promise<NotificationPermission> | undefined;
      answer?.then(resolve, () => resolve('denied'));
    } catch {
      resolve('denied');
    }
  });
}
