/**
 * The checks a call passes before anything is sent (docs/protocol.md, "Paths and names"): the task
 * name, the task id, and the params (against the task's own schema when the client has one).
 */
import * as z from 'zod/mini';
import { TaskwireError } from './errors.js';
import { refusal } from './error-factories.js';
import { describeIssues, ruleOfIssue } from '../protocol/describe-issues.js';
import { jsonObjectSchema } from '../protocol/records.js';
import { isTaskId, TASK_NAME_PATTERN } from '../protocol/names.js';
import type { TaskSchema, TaskSchemas } from '../protocol/task-schemas.js';

/** The schemas of `task` in the task map `tasks`, if it has an entry for it. */
export function schemaOfTask(
  tasks: TaskSchemas | undefined,
  task: unknown,
): TaskSchema | undefined {
  // `hasOwn`, since `constructor` or `toString` are valid task names.
  return typeof task === 'string' && tasks !== undefined && Object.hasOwn(tasks, task)
    ? tasks[task]
    : undefined;
}

/** The contract's task name rule, re-checked here so a refusal names the rule. */
export function checkTaskName(task: unknown): string {
  if (typeof task !== 'string' || !TASK_NAME_PATTERN.test(task)) {
    throw refusal(
      'INVALID_TASK_NAME',
      `The task name ${typeof task === 'string' ? `'${task.slice(0, 140)}'` : `(a ${typeof task})`} does not match ${TASK_NAME_PATTERN}.`,
    );
  }
  return task;
}

/**
 * Checks a task id (1 to 256 characters). `.` and `..` are refused too: a URL parser would read
 * them, even encoded, as path steps and send the request to another endpoint.
 */
export function checkTaskId(id: unknown): string {
  if (!isTaskId(id)) {
    throw refusal(
      'INVALID_TASK_ID',
      'A task id must be a string of 1 to 256 characters, and not "." or "..".',
    );
  }
  return id;
}

/**
 * Checks params (against `schema`, the task's params schema, when there is one) and renders the
 * JSON body of a POST.
 */
export function requestBody(
  schema: z.core.$ZodType | undefined,
  task: string,
  params: unknown,
  extra: Record<string, unknown> = {},
): string {
  if (schema !== undefined) {
    const parsed = z.safeParse(schema, params);
    if (!parsed.success) {
      throw refusal(
        'INVALID_PARAMS',
        `The params of '${task}' are invalid: ${describeIssues(parsed.error.issues, [], ruleOfIssue)}`,
      );
    }
  } else if (!jsonObjectSchema.safeParse(params).success || Array.isArray(params)) {
    throw refusal('INVALID_PARAMS', `The params of '${task}' must be a JSON object.`);
  }
  try {
    // Params are sent as given: the schema checks them, it does not rewrite them.
    return JSON.stringify({ params, ...extra });
  } catch (error) {
    throw new TaskwireError('protocol', `The params of '${task}' cannot be written as JSON.`, {
      reason: 'INVALID_PARAMS',
      cause: error,
    });
  }
}

/**
 * The checks of a POST (Submit, Stream, Execute, Options) against the task map `tasks`, as the
 * client runs them before sending: the task name, then the params; the checked name and the JSON
 * body to send. For the journal, which checks a Submit before it stores its body.
 */
export function checkedPost(
  tasks: TaskSchemas | undefined,
  task: unknown,
  params: unknown,
  extra: Record<string, unknown> = {},
): { name: string; body: string } {
  const name = checkTaskName(task);
  return { name, body: requestBody(schemaOfTask(tasks, name)?.params, name, params, extra) };
}
