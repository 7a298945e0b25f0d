'use client';
import { forwardRef, useCallback } from 'react';
import {
  lineIdOf,
  TaskListView,
  type TaskListViewProps,
} from '../components/task-list/task-list-view.js';
import { useJournalSession } from './taskwire-provider.js';
import { useJournalSnapshot } from './use-task-journal.js';
import { useTaskListItems, type UseTaskListOptions } from './use-task-list.js';

/**
 * Props of {@link TaskList}: the filters of `useTaskList`, and any {@link TaskListView} prop but
 * the data (`items`, `onDismiss`).
 */
export interface TaskListProps
  extends UseTaskListOptions, Omit<TaskListViewProps, 'items' | 'onDismiss'> {}

/**
 * The provider's journal as a {@link TaskListView}, with no props for data: the tasks of this
 * client's scope (filtered by `task` and `active`), polled while they run, a task whose reads
 * failed for good shown as such and a start cut by a reload as outcome unknown, each with a dismiss
 * button that removes it from the journal (the task goes on at the service).
 */
export const TaskList = forwardRef<HTMLDivElement, TaskListProps>(function TaskList(
  { task, active, polling, ...rest },
  ref,
) {
  const session = useJournalSession();
  const items = useTaskListItems(useJournalSnapshot(), {
    ...(task !== undefined ? { task } : {}),
    ...(active !== undefined ? { active } : {}),
    ...(polling !== undefined ? { polling } : {}),
  });
  const dismiss = useCallback(
    (id: string) => {
      const item = items.find((candidate) => lineIdOf(candidate) === id);
      if (item?.start) session?.forgetStart(item.start.key);
      else if (item) session?.remove(id);
    },
    [items, session],
  );
  return <TaskListView ref={ref} {...rest} items={items} onDismiss={dismiss} />;
});
