/**
 * What the page does when a journal task ends while it is hidden (docs/protocol.md, "The hooks"): a
 * system notification if the app already has the permission, else the count of such tasks before
 * the document title until the page is visible again. Framework-free; `useCompletionNotice` hands
 * it the tasks a journal session reports ended.
 */
import type { TaskJournalEntry } from './task-journal.js';
import { isPageHidden } from './polling-policy.js';

// The title prefix is one for the page, whichever sessions counted into it.
const title = { count: 0, original: '', shown: '', attached: 0 };

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
  if (!isPageHidden()) restoreTitle();
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
 * Tells the user that `entry`'s task ended, if the page is hidden: a notification, or else one more
 * in the title's count. Nothing while the page is visible: the user sees the task there.
 */
export function noticeTaskEnded(entry: TaskJournalEntry): void {
  if (isPageHidden() && !showNotification(entry)) countInTitle();
}

/**
 * Restores the title when the page becomes visible again, for as long as one caller keeps it
 * attached; returns the detach, which restores the title when the last caller detaches.
 */
export function attachTitleRestore(): () => void {
  if (typeof document === 'undefined') return () => undefined;
  if (title.attached++ === 0) document.addEventListener('visibilitychange', onVisibilityChange);
  return () => {
    if (--title.attached === 0) {
      document.removeEventListener('visibilitychange', onVisibilityChange);
      restoreTitle();
    }
  };
}

/**
 * Asks the user for the permission to show system notifications, and resolves to the answer;
 * `'denied'` where the browser has no Notification API. Browsers only ask from a user gesture: call
 * it in a click handler (a "Notify me" button), never on load. `useCompletionNotice` never asks
 * by itself.
 */
export function requestNotificationPermission(): Promise<'default' | 'denied' | 'granted'> {
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
