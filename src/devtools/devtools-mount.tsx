'use client';
/**
 * The devtools' mount point, loaded with `taskwire/devtools` in development: it starts recording the
 * client's activity at once and lazy-loads the panel (`devtools-panel.tsx`), which then shows
 * everything recorded since the mount.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTaskClient } from '../react/index.js';
import type { TaskClient } from '../client/index.js';
import { createActivityRecorder, type ActivityRecorder } from './activity-recorder.js';

/** Where the devtools sit: floating in the page's bottom corner, or in the flow of the page. */
export type DevtoolsPlacement = 'corner' | 'inline';

/** Props of `TaskwireDevtools`. */
export interface TaskwireDevtoolsProps {
  /**
   * The client whose activity is shown (anything with `subscribe`). Defaults to the client of the
   * nearest `TaskwireProvider`.
   */
  client?: Pick<TaskClient, 'subscribe'> | undefined;
  /** Whether the panel starts open. Defaults to `false`: only its toggle button shows. */
  initialIsOpen?: boolean | undefined;
  /** Where the devtools sit. Defaults to `'corner'`, fixed at the page's bottom end corner. */
  placement?: DevtoolsPlacement | undefined;
}

/** Props the panel gets from the mount. */
export interface DevtoolsPanelProps extends Omit<TaskwireDevtoolsProps, 'client'> {
  /** The activity recorded since the mount. */
  recorder: ActivityRecorder;
}

// A chunk of its own: none of the panel's code or CSS loads before the devtools mount.
const DevtoolsPanel = /* @__PURE__ */ lazy(() => import('./devtools-panel.js'));

/** Records a client's activity from its mount on, and shows the panel once it has loaded. */
function Recording({
  client,
  ...panel
}: Omit<TaskwireDevtoolsProps, 'client'> & { client: Pick<TaskClient, 'subscribe'> }) {
  const [recorder] = useState(createActivityRecorder);
  // On mount, while the panel's chunk may still be loading: what happens meanwhile is kept.
  useEffect(() => recorder.record(client), [recorder, client]);
  return (
    <Suspense fallback={null}>
      <DevtoolsPanel recorder={recorder} {...panel} />
    </Suspense>
  );
}

/** {@link Recording} with the client of the nearest provider. */
function RecordingProvidedClient(props: Omit<TaskwireDevtoolsProps, 'client'>) {
  return <Recording client={useTaskClient()} {...props} />;
}

/**
 * The devtools without the production check: records the activity of `client` (or the provider's)
 * and lazy-loads the panel. Apps use `TaskwireDevtools`; this is for places that show the panel
 * in a production build on purpose (a static Storybook).
 */
export function DevtoolsMount({ client, ...props }: TaskwireDevtoolsProps) {
  return client === undefined ? (
    <RecordingProvidedClient {...props} />
  ) : (
    <Recording client={client} {...props} />
  );
}
