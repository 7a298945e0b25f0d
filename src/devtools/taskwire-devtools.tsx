'use client';
/**
 * `<TaskwireDevtools />`: the entry of `taskwire/devtools`. In a production build it renders
 * nothing, and its `process.env.NODE_ENV` check, which bundlers replace with a string, lets them
 * drop the mount and, with it, the `import()` of the panel: a production bundle holds no devtools
 * code (docs/protocol.md, "The activity feed").
 */
import { DevtoolsMount, type TaskwireDevtoolsProps } from './devtools-mount.js';

/**
 * An in-app panel of everything the client did: every task it touched (submitted, streamed,
 * executed, priced or polled) with its timeline of requests, polls, stream events, progress,
 * quoted and charged credits, retries and errors. Renders nothing when `NODE_ENV` is
 * `production`; otherwise it starts recording the client's activity on mount and loads the panel
 * on demand. Place it anywhere below the `TaskwireProvider`, or pass a `client`.
 */
export function TaskwireDevtools(props: TaskwireDevtoolsProps) {
  if (process.env.NODE_ENV === 'production') return null;
  return <DevtoolsMount {...props} />;
}
