import {
  forwardRef,
  useEffect,
  useId,
  useRef,
  type ComponentPropsWithoutRef,
  type ReactNode,
} from 'react';
import type { TaskRecord } from '../../protocol/records.js';
import type { TaskJournalEntry } from '../../state/task-journal.js';
import { rootProps } from '../root-props.js';
import { warnInvalidProp } from '../dev-warning.js';
import { formatCredits, formatNumber, type Locale } from '../format.js';
import { TaskStatusBadge } from '../task-status-badge/task-status-badge.js';
import { toDisplayStatus, type TaskDisplayStatus } from '../task-status.js';
import { formatStartTime } from './format-start-time.js';

/** One task a {@link TaskListView} shows: a journal entry and, once read, its record. */
export interface TaskListViewItem {
  /** The journal entry (`useTaskList()` items fit as they are). */
  entry: Pick<TaskJournalEntry, 'id' | 'task' | 'status' | 'startedAt'>;
  /** The task's record, `undefined` until read: progress and credits come from it. */
  record?: Pick<TaskRecord, 'status' | 'progress' | 'usage'> | undefined;
}

/** What a {@link TaskListView} shows, mirrored in its `data-state`. */
export type TaskListViewState = 'empty' | 'listed';

/** Props of {@link TaskListView}; any other prop goes to the root `<div>`. */
export interface TaskListViewProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /** The tasks, newest first (`useTaskList()`). Defaults to `[]`. */
  items?: readonly TaskListViewItem[];
  /** Called with the task id when its dismiss button is pressed. Without it, no dismiss buttons. */
  onDismiss?: (id: string) => void;
  /** The list's visible heading. Defaults to `'Tasks'`. */
  label?: ReactNode;
  /** Shown when there are no tasks. Defaults to `'No tasks yet.'`. */
  emptyText?: ReactNode;
  /** Locale of the figures and times. Defaults to the user's locale. */
  locale?: Locale;
}

/** The status an item shows: its record's, else its entry's (both may be the service's words). */
function statusOf(item: TaskListViewItem): TaskDisplayStatus {
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
    label = 'Tasks',
    emptyText = 'No tasks yet.',
    locale,
    ...rest
  },
  ref,
) {
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
    focusNext.current = (items[index + 1] ?? items[index - 1])?.entry.id ?? '';
    onDismiss(item.entry.id);
  };

  return (
    <div {...rootProps(ref, 'taskwire-task-list', state, rest)}>
      <p id={labelId} ref={labelRef} tabIndex={-1} className="taskwire-task-list__label">
        {label}
      </p>
      {state === 'empty' ? (
        <p className="taskwire-task-list__empty">{emptyText}</p>
      ) : (
        <ul className="taskwire-task-list__list" aria-labelledby={labelId}>
          {items.map((item, index) => {
            const { entry, record } = item;
            const status = statusOf(item);
            const started = formatStartTime(entry.startedAt, locale);
            const percent = record?.progress.percent;
            const credits = record?.usage?.credits;
            return (
              <li key={entry.id} className="taskwire-task-list__item" data-state={status}>
                <span className="taskwire-task-list__task">{entry.task}</span>
                <TaskStatusBadge className="taskwire-task-list__status" status={status} />
                <span className="taskwire-task-list__details">
                  {percent !== undefined && (
                    <span className="taskwire-task-list__progress">
                      {formatNumber(percent / 100, locale, {
                        style: 'percent',
                        maximumFractionDigits: 0,
                      })}{' '}
                      done
                    </span>
                  )}
                  {credits !== undefined && (
                    <span className="taskwire-task-list__credits">
                      {formatCredits(credits, locale)}
                    </span>
                  )}
                  <span className="taskwire-task-list__started">
                    Started <time dateTime={started.iso}>{started.text}</time>
                  </span>
                </span>
                {onDismiss && (
                  <button
                    type="button"
                    className="taskwire-button taskwire-task-list__dismiss"
                    aria-label={`Dismiss ${entry.task}, started ${started.text}`}
                    data-dismiss-id={entry.id}
                    onClick={() => dismiss(index)}
                  >
                    Dismiss
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
