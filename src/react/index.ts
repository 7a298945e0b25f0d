export {
  TaskwireProvider,
  useTaskClient,
  type AnyTaskClient,
  type TaskwireProviderProps,
} from './taskwire-provider.js';
export type { Register, RegisteredTasks } from '../query/register.js';
export { useJournalEntry, useTaskJournal, type UseTaskJournalResult } from './use-task-journal.js';
export {
  useTaskList,
  type TaskListItem,
  type TaskListStartItem,
  type TaskListTaskItem,
  type UseTaskListOptions,
  type UseTaskListResult,
} from './use-task-list.js';
export { TaskList, type TaskListProps } from './task-list.js';
export {
  taskwireKeys,
  taskResultQueryOptions,
  taskOptionsQueryOptions,
  type TaskResultQueryConfig,
  type TaskOptionsQueryConfig,
  type TaskwireQueryOptions,
} from '../query/query-options.js';
export {
  useSubmitTask,
  type SubmitTaskVariables,
  type UseSubmitTaskOptions,
  type UseSubmitTaskResult,
} from './use-submit-task.js';
export {
  useTaskResult,
  type UseTaskResultOptions,
  type UseTaskResultResult,
} from './use-task-result.js';
export {
  useTaskStream,
  type UseTaskStreamOptions,
  type UseTaskStreamResult,
} from './use-task-stream.js';
export {
  useTaskOptions,
  type UseTaskOptionsOptions,
  type UseTaskOptionsResult,
} from './use-task-options.js';
export {
  useExecuteTask,
  type ExecuteTaskVariables,
  type UseExecuteTaskResult,
} from './use-execute-task.js';
export { useCompletionNotice, type UseCompletionNoticeOptions } from './use-completion-notice.js';
export { requestNotificationPermission } from '../state/completion-notice.js';
