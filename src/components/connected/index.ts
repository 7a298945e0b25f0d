/** Glue between the hooks' state and the components' props. */
export { streamDisplayStatus } from './stream-display-status.js';
