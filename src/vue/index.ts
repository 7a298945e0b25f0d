/**
 * `taskwire/vue`: the hooks of `taskwire` as Vue 3 composables, and its client; no React. @packageDocumentation
 */
export { TaskwirePlugin, type TaskwirePluginOptions } from './taskwire-plugin.js';
export { useSubmitTask, type UseSubmitTaskResult } from './use-submit-task.js';
export { useTaskResult, type UseTaskResultResult } from './use-task-result.js';
export { useTaskStream, type UseTaskStreamResult } from './use-task-stream.js';
export { useTaskOptions, type UseTaskOptionsResult } from './use-task-options.js';
export { useExecuteTask, type UseExecuteTaskResult } from './use-execute-task.js';
export { useTaskList, type UseTaskListResult } from './use-task-list.js';
export type * from '../query/hook-options.js';
export type { TaskListItem, TaskListStartItem, TaskListTaskItem } from '../query/index.js';
export type { Register, RegisteredTasks } from '../query/register.js';
export type { TaskStreamState, TaskStreamStatus } from '../state/task-stream-state.js';
export { createTaskClient } from '../client/create-task-client.js';
export { createTaskJournal, type TaskJournal } from '../state/task-journal.js';
