import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { rootProps } from '../root-props.js';
import { warnInvalidProp } from '../dev-warning.js';
import { useMessages } from '../messages/messages-context.js';
import type { TaskwireMessagesOverride } from '../messages/messages.js';
import {
  statusMessages,
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
  /** Status words to use instead of the provider's (or English), in part. Defaults to none. */
  messages?: TaskwireMessagesOverride<'status'> | undefined;
}

/** The English group the badge reads. */
const ENGLISH = { status: statusMessages };

/**
 * A task's state as a word in a pill ("Queued", "Running", "Reconnecting", "Completed", "Failed"),
 * never colour alone.
 */
export const TaskStatusBadge = forwardRef<HTMLSpanElement, TaskStatusBadgeProps>(
  function TaskStatusBadge({ status: statusProp = 'idle', messages: messagesProp, ...rest }, ref) {
    const { messages } = useMessages(ENGLISH, messagesProp);
    let status = toDisplayStatus(statusProp);
    if (status === undefined) {
      warnInvalidProp('TaskStatusBadge', 'status', statusProp, "'idle'");
      status = 'idle';
    }
    return (
      <span {...rootProps(ref, 'taskwire-badge', status, rest)}>{messages.status[status]}</span>
    );
  },
);
