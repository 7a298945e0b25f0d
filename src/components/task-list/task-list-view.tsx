import {
  forwardRef,
  useEffect,
  useId,
  useRef,
  type ComponentPropsWithoutRef,
  type ReactNode,
} from 'react';
import type { TaskRecord } from '../../protocol/records.js';
import type { TaskJournalEntry, TaskJournalStart } from '../../state/task-journal.js';
import { rootProps } from '../root-props.js';
import { warnInvalidProp } from '../dev-warning.js';
import { formatCredits, formatNumber, type Locale } from '../format.js';
import { creditMessages } from '../messages/credit-messages.js';
import { useMessages } from '../messages/messages-context.js';
import type { TaskwireMessagesOverride } from '../messages/messages.js';
import { TaskStatusBadge } from '../task-status-badge/task-status-badge.js';
import { statusMessages, toDisplayStatus, type TaskDisplayStatus } from '../task-status.js';
import { formatStartTime } from './format-start-time.js';
import { taskListMessages } from './task-list-messages.js';

/**
 * One task a {@link TaskListView} shows: a journal entry and, once read, its record (or the error
 * that ended its reads); or a start whose outcome is unknown. `useTaskList()` items fit as they are.
 */
export interface TaskListViewItem {
  /** The journal entry; `undefined` for a start whose outcome is unknown. */
  entry?: Pick<TaskJournalEntry, 'id' | 'task' | 'status' | 'startedAt'> | undefined;
  /** A start cut before the service answered (no task id known): shown as outcome unknown. */
  start?: Pick<TaskJournalStart, 'key' | 'task' | 'startedAt'> | undefined;
  /** The task's record, `undefined` until read: progress and credits come from it. */
  record?: Pick<TaskRecord, 'status' | 'progress' | 'usage'> | undefined;
  /** The error that ended the task's reads for good (a 404, 410 or 401), shown instead of a status. */
  error?: { status?: number | undefined } | undefined;
}

/** What a {@link TaskListView} shows, mirrored in its `data-state`. */
export type TaskListViewState = 'empty' | 'listed';

/** What one line of a {@link TaskListView} shows, mirrored in its `data-state`. */
export type TaskListItemState = TaskDisplayStatus | 'error' | 'unknown';

/** The id a line goes by, and `onDismiss` is called with: the task's, or `start:` and its key. */
export function lineIdOf(item: TaskListViewItem): string {
  return item.entry ? item.entry.id : `start:${item.start?.key ?? ''}`;
}

/** Props of {@link TaskListView}; any other prop goes to the root `<div>`. */
export interface TaskListViewProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /** The tasks, newest first (`useTaskList()`). Defaults to `[]`. */
  items?: readonly TaskListViewItem[];
  /**
   * Called with the task id when its dismiss button is pressed (`start:` and its key for a start
   * with no task id). Without it, no dismiss buttons.
   */
  onDismiss?: (id: string) => void;
  /** The list's visible heading. Defaults to the `taskList.label` message (`'Tasks'`). */
  label?: ReactNode;
  /** Shown when there are no tasks. Defaults to the `taskList.empty` message (`'No tasks yet.'`). */
  emptyText?: ReactNode;
  /** Locale of the figures and times. Defaults to the provider's `locale`, else the user's. */
  locale?: Locale;
  /**
   * Words to use instead of the provider's (or English), in part: the `taskList`, `status` (the
   * badges) and `credits` groups. Defaults to none.
   */
  messages?: TaskwireMessagesOverride<'taskList' | 'status' | 'credits'> | undefined;
}

/** The English groups the list reads (the badges' status words included). */
const ENGLISH = { taskList: taskListMessages, status: statusMessages, credits: creditMessages };

/**
 * The state a line shows: an error that ended its reads, an unknown outcome, else its record's
 * status, else its entry's (both may be the service's words).
 */
function stateOf(item: TaskListViewItem): TaskListItemState {
  if (!item.entry) return 'unknown';
  if (item.error) return 'error';
  return toDisplayStatus(item.record?.status ?? item.entry.status) ?? 'idle';
}

const DISMISS_ATTRIBUTE = 'data-dismiss-id';

/**
 * The tasks of a journal as a list: per task its name, status, progress, credits charged and start
 * time, and a button that dismisses it (the task goes on at the service). After a dismissal the
 * focus moves to the next task's button (or the previous, or the heading), never to the page.
 */
export const TaskListView = forwardRef<HTMLDivElement, TaskListViewProps>(function TaskListView(
  {
    items: itemsProp = [],
    onDismiss,
    label,
    emptyText,
    locale: localeProp,
    messages: messagesProp,
    ...rest
  },
  ref,
) {
  const { messages, locale } = useMessages(ENGLISH, messagesProp, localeProp);
  const text = messages.taskList;
  const labelId = useId();
  const labelRef = useRef<HTMLParagraphElement>(null);
  // The id whose button takes the focus once a dismissal has re-rendered the list ('' = heading).
  const focusNext = useRef<string | undefined>(undefined);
  let items = itemsProp;
  if (!Array.isArray(items)) {
    warnInvalidProp('TaskListView', 'items', items, '[]');
    items = [];
  }
  const state: TaskListViewState = items.length === 0 ? 'empty' : 'listed';

  useEffect(() => {
    const target = focusNext.current;
    if (target === undefined) return;
    focusNext.current = undefined;
    const root = labelRef.current?.parentElement;
    const button = Array.from(
      root?.querySelectorAll<HTMLElement>(`[${DISMISS_ATTRIBUTE}]`) ?? [],
    ).find((element) => element.getAttribute(DISMISS_ATTRIBUTE) === target);
    (button ?? labelRef.current)?.focus();
  });

  const dismiss = (index: number) => {
    const item = items[index];
    if (!item || !onDismiss) return;
    const next = items[index + 1] ?? items[index - 1];
    focusNext.current = next ? lineIdOf(next) : '';
    onDismiss(lineIdOf(item));
  };

  return (
    <div {...rootProps(ref, 'taskwire-task-list', state, rest)}>
      <p id={labelId} ref={labelRef} tabIndex={-1} className="taskwire-task-list__label">
        {label ?? text.label}
      </p>
      {state === 'empty' ? (
        <p className="taskwire-task-list__empty">{emptyText ?? text.empty}</p>
      ) : (
        <ul className="taskwire-task-list__list" aria-labelledby={labelId}>
          {items.map((item, index) => {
            const { record } = item;
            const line = item.entry ?? item.start;
            if (!line) return null;
            const id = lineIdOf(item);
            const state = stateOf(item);
            const started = formatStartTime(line.startedAt, locale);
            const percent = state === 'error' ? undefined : record?.progress.percent;
            const credits = record?.usage?.credits;
            return (
              <li key={id} className="taskwire-task-list__item" data-state={state}>
                <span className="taskwire-task-list__task">{line.task}</span>
                {state === 'error' || state === 'unknown' ? (
                  <span className="taskwire-task-list__status taskwire-task-list__problem">
                    {state === 'error' ? text.readFailed(item.error?.status) : text.outcomeUnknown}
                  </span>
                ) : (
                  <TaskStatusBadge
                    className="taskwire-task-list__status"
                    status={state}
                    messages={messages}
                  />
                )}
                <span className="taskwire-task-list__details">
                  {percent !== undefined && (
                    <span className="taskwire-task-list__progress">
                      {text.done(
                        percent,
                        formatNumber(percent / 100, locale, {
                          style: 'percent',
                          maximumFractionDigits: 0,
                        }),
                      )}
                    </span>
                  )}
                  {credits !== undefined && (
                    <span className="taskwire-task-list__credits">
                      {formatCredits(credits, locale, messages.credits)}
                    </span>
                  )}
                  {/* The whole phrase in <time>: word order differs by language, and the
                      dateTime attribute still gives the machine-readable instant. */}
                  <time className="taskwire-task-list__started" dateTime={started.iso}>
                    {text.started(started.text, started.today)}
                  </time>
                </span>
                {onDismiss && (
                  <button
                    type="button"
                    className="taskwire-button taskwire-task-list__dismiss"
                    aria-label={text.dismissLabel(line.task, started.text, started.today)}
                    data-dismiss-id={id}
                    onClick={() => dismiss(index)}
                  >
                    {text.dismiss}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
});
