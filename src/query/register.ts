/**
 * Typed tasks for the hooks and the composables. Declare your task map once and every hook is typed
 * by task name (a Vue app declares it on `'taskwire/vue'`, which exports the same `Register`):
 *
 * ```ts
 * declare module 'taskwire' {
 *   interface Register {
 *     tasks: typeof myTaskSchemas;
 *   }
 * }
 * ```
 */
import type { TaskSchemas } from '../protocol/task-schemas.js';

/** Augment this interface with `tasks: typeof yourTaskSchemas` to type the hooks by task name. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface Register {}

/** The task map declared through {@link Register}, or any task when none is declared. */
export type RegisteredTasks = Register extends { tasks: infer Tasks extends TaskSchemas }
  ? Tasks
  : TaskSchemas;
