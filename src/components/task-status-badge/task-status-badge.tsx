import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { rootProps } from '../root-props.js';
import { warnInvalidProp } from '../dev-warning.js';
import {
  describeStatus,
  toDisplayStatus,
  type TaskDisplayStatus,
  type TaskStatusInput,
} from '../task-status.js';

/** What a {@link TaskStatusBadge} shows, mirrored in its `data-state`. */
export type TaskStatusBadgeState = TaskDisplayStatus;

/** Props of {@link TaskStatusBadge}; any other prop goes to the `<span>`. */
export interface TaskStatusBadgeProps extends Omit<ComponentPropsWithoutRef<'span'>, 'children'> {
  /** The task's state, in the components' words or the service's (`'ACCEPTED'`). Defaults to `'idle'`. */
  status?: TaskStatusInput;
}

/**
 * A task's state as a word in a pill ("Queued", "Running", "Reconnecting", "Completed", "Failed"),
 * never colour alone.
 */
export const TaskStatusBadge = forwardRef<HTMLSpanElement, TaskStatusBadgeProps>(
  function TaskStatusBadge({ status: statusProp = 'idle', ...rest }, ref) {
    let status = toDisplayStatus(statusProp);
    if (status === undefined) {
      warnInvalidProp('TaskStatusBadge', 'status', statusProp, "'idle'");
      status = 'idle';
    }
    return (
      <span {...rootProps(ref, 'taskwire-badge', status, rest)}>{describeStatus(status)}</span>
    );
  },
);
