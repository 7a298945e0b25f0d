/**
 * The naming rules of the wire (docs/protocol.md, "Paths and names"): task names in paths and the
 * actions of custom events share one pattern, so a name can never smuggle a path step or a
 * control character into a URL or an event type.
 */

/** The rule for task names, checked by the client before any request and by the service on receipt. */
export const TASK_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The rule for the action of a custom event `event.<action>`: the task-name rule. */
export const EVENT_ACTION_PATTERN = TASK_NAME_PATTERN;
