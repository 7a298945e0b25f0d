/**
 * A type guard for stream events. A `switch` on `event.type` cannot narrow a known type such as
 * `task.completed` by itself, since the pass-through type of unknown events (`task.${string}`) also
 * matches it; this guard narrows to exactly the events of that type.
 */

/**
 * Whether `event` is of type `type`; narrows it to the members of its union with that literal type.
 *
 * @example
 * if (isStreamEventType(event, 'task.completed')) show(event.result);
 */
export function isStreamEventType<Event extends { type: string }, Type extends Event['type']>(
  event: Event,
  type: Type,
): event is Extract<Event, { type: Type }> {
  return event.type === type;
}
