'use client';
import { forwardRef } from 'react';
import { TaskListView, type TaskListViewProps } from '../components/task-list/task-list-view.js';
import { useTaskJournal } from './use-task-journal.js';
import { useTaskListItems, type UseTaskListOptions } from './use-task-list.js';

/**
 * Props of {@link TaskList}: the filters of `useTaskList`, and any {@link TaskListView} prop but
 * the data (`items`, `onDismiss`).
 */
export interface TaskListProps
  extends UseTaskListOptions, Omit<TaskListViewProps, 'items' | 'onDismiss'> {}

/**
 * The provider's journal as a {@link TaskListView}, with no props for data: the tasks of this
 * client's scope (filtered by `task` and `active`), polled while they run, each with a dismiss
 * button that removes its entry from the journal (the task goes on at the service).
 */
export const TaskList = forwardRef<HTMLDivElement, TaskListProps>(function TaskList(
  { task, active, polling, ...rest },
  ref,
) {
  const { entries, remove } = useTaskJournal();
  const items = useTaskListItems(entries, {
    ...(task !== undefined ? { task } : {}),
    ...(active !== undefined ? { active } : {}),
    ...(polling !== undefined ? { polling } : {}),
  });
  return <TaskListView ref={ref} {...rest} items={items} onDismiss={remove} />;
});
