/**
 * `taskwire/devtools`: `<TaskwireDevtools />`, an in-app panel of the client's activity
 * (docs/protocol.md, "The activity feed"), loaded on demand and absent from production builds.
 *
 * @packageDocumentation
 */
export { TaskwireDevtools } from './taskwire-devtools.js';
export type { DevtoolsPlacement, TaskwireDevtoolsProps } from './devtools-mount.js';
