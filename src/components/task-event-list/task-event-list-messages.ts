/** What {@link TaskEventList} says around the events, which are the task's own data. */
export interface TaskEventListMessages {
  /** The heading when no `label` is given: "Events". */
  label: string;
  /** Shown when there are no events and no `emptyText` is given: "No events yet.". */
  empty: string;
  /** One field of an event: "frame: 3". */
  field: (name: string, value: string) => string;
  /** Between two fields: ", ". */
  fieldSeparator: string;
}

/** English event list wording, the default. */
export const taskEventListMessages: TaskEventListMessages = {
  label: 'Events',
  empty: 'No events yet.',
  field: (name, value) => `${name}: ${value}`,
  fieldSeparator: ', ',
};
