/**
 * `taskwire/vite`: a Vite plugin that mounts the reference service on the dev and preview servers.
 *
 * @packageDocumentation
 */
export { taskwireReference } from './taskwire-vite-plugin.js';
export type { TaskwireReferenceOptions } from './taskwire-vite-plugin.js';
