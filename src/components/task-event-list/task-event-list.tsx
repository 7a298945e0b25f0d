import { forwardRef, useId, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { rootProps } from '../root-props.js';
import { warnInvalidProp } from '../dev-warning.js';
import { useMessages } from '../messages/messages-context.js';
import type { TaskwireMessagesOverride } from '../messages/messages.js';
import { taskEventListMessages } from './task-event-list-messages.js';

/**
 * One custom event: as Get Result lists it (`{ type, id }`) or as a stream delivers it (`{ type,
 * eventId?, …fields }`); fields other than the ids are shown as text.
 */
export interface TaskEventListItem {
  /** The event's type, such as `event.frame-rendered`. */
  type: string;
  /** The event's id from Get Result. */
  id?: string;
  /** The event's id from the stream's `id:` line. */
  eventId?: string;
  /** The task's own fields. */
  [field: string]: unknown;
}

/** What a {@link TaskEventList} shows, mirrored in its `data-state`. */
export type TaskEventListState = 'empty' | 'listed';

/** Props of {@link TaskEventList}; any other prop goes to the root `<div>`. */
export interface TaskEventListProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /** The task's custom events in order (`record.events` or a stream's `events`). Defaults to `[]`. */
  events?: readonly TaskEventListItem[];
  /** The list's visible heading. Defaults to the `taskEventList.label` message (`'Events'`). */
  label?: ReactNode;
  /** Shown when there are no events. Defaults to the `taskEventList.empty` message (`'No events yet.'`). */
  emptyText?: ReactNode;
  /** Words to use instead of the provider's (or English), in part. Defaults to none. */
  messages?: TaskwireMessagesOverride<'taskEventList'> | undefined;
}

/** The English group the list reads. */
const ENGLISH = { taskEventList: taskEventListMessages };

/** Longest field value shown, so one huge field cannot flood the page. */
const MAX_FIELD_LENGTH = 200;

function showField(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : String(JSON.stringify(value));
  } catch {
    text = String(value);
  }
  return text.length > MAX_FIELD_LENGTH ? `${text.slice(0, MAX_FIELD_LENGTH - 1)}…` : text;
}

/**
 * A task's custom events as an ordered list: the action name (`frame-rendered` for
 * `event.frame-rendered`) and the event's fields, all rendered as text.
 */
export const TaskEventList = forwardRef<HTMLDivElement, TaskEventListProps>(function TaskEventList(
  { events: eventsProp = [], label, emptyText, messages: messagesProp, ...rest },
  ref,
) {
  const text = useMessages(ENGLISH, messagesProp).messages.taskEventList;
  const labelId = useId();
  let events = eventsProp;
  if (!Array.isArray(events)) {
    warnInvalidProp('TaskEventList', 'events', events, '[]');
    events = [];
  }
  const state: TaskEventListState = events.length === 0 ? 'empty' : 'listed';
  return (
    <div {...rootProps(ref, 'taskwire-events', state, rest)}>
      <p id={labelId} className="taskwire-events__label">
        {label ?? text.label}
      </p>
      {state === 'empty' ? (
        <p className="taskwire-events__empty">{emptyText ?? text.empty}</p>
      ) : (
        // Focusable because it scrolls: a keyboard user must be able to reach the older events.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region (axe scrollable-region-focusable)
        <ol className="taskwire-events__list" aria-labelledby={labelId} tabIndex={0}>
          {events.map((event, index) => {
            const { type, id, eventId, ...fields } = event;
            const typeText = String(type);
            const entries = Object.entries(fields);
            return (
              <li key={id ?? eventId ?? index} className="taskwire-events__item">
                <span className="taskwire-events__type">
                  {typeText.startsWith('event.') ? typeText.slice('event.'.length) : typeText}
                </span>
                {entries.length > 0 && (
                  <span className="taskwire-events__fields">
                    {entries
                      .map(([name, value]) => text.field(name, showField(value)))
                      .join(text.fieldSeparator)}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
});
