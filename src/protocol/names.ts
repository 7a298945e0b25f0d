/**
 * The naming rules of the wire (docs/protocol.md, "Paths and names"): task names in paths and the
 * actions of custom events share one pattern, so a name can never smuggle a path step or a
 * control character into a URL or an event type; task ids have a rule of their own
 * (`taskIdSchema`), and the server proxy a stricter one on top of it.
 */
import * as z from 'zod/mini';
import { taskIdSchema } from './records.js';

/** The rule for task names, checked by the client before any request and by the service on receipt. */
export const TASK_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A task name as the wire carries it (docs/protocol.md, "Paths and names"). */
export const taskNameSchema = z.string().check(z.regex(TASK_NAME_PATTERN));

/** The rule for the action of a custom event `event.<action>`: the task-name rule. */
export const EVENT_ACTION_PATTERN = TASK_NAME_PATTERN;

/**
 * What an opaque task id never holds: a delimiter of paths or queries (`/`, `\`, `?`, `#`), `%` (an
 * escape that a hop behind the proxy may decode once more), whitespace, or a control character
 * (C0, DEL, C1).
 */
const NOT_OPAQUE_PATTERN = /[/\\?#%\s\p{Cc}]/u;

/**
 * Whether `id` is a task id (`taskIdSchema`): 1 to 256 characters, and not `.` or `..`. The client
 * checks every id it is given, and every id a service answers with, with it.
 */
export function isTaskId(id: unknown): id is string {
  return taskIdSchema.safeParse(id).success;
}

/**
 * Whether `id` is an opaque task id, the only kind the server proxy forwards (docs/protocol.md, "The
 * server proxy"): a task id with none of the characters that a hop behind the proxy which decodes
 * paths could turn into another path, a query or an escape.
 */
export function isOpaqueTaskId(id: unknown): id is string {
  return isTaskId(id) && !NOT_OPAQUE_PATTERN.test(id);
}
