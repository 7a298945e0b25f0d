/**
 * Small readers of answers shared by the checks: the JSON error body (docs/protocol.md, "Error
 * bodies"), the success envelope (docs/protocol.md, "Records") and the relaxed record shapes, whose
 * usage is checked for its shape only, so that a usage that does not add up fails
 * `usage.arithmetic` alone and not every check that reads a record.
 */
import * as z from 'zod/mini';
import { describeIssues, ruleOfIssue } from '../protocol/describe-issues.js';
import { errorBodySchema } from '../protocol/error-body.js';
import { taskRecordSchema } from '../protocol/records.js';
import { executeRecordSchema } from '../protocol/start-answers.js';
import { usageShapeSchema } from '../protocol/usage.js';
import type { Answer } from './check-run.js';
import { TOO_LARGE } from './read-text.js';

/** A task record as Get Result answers it, its usage's sums left to `usage.arithmetic`. */
export const recordShapeSchema = z.extend(taskRecordSchema, {
  usage: z.optional(usageShapeSchema),
});

/** Execute's answer, its usage's sums left to `usage.arithmetic`. */
export const executeShapeSchema = z.extend(executeRecordSchema, {
  usage: z.optional(usageShapeSchema),
});

/** What is wrong with `value` under `schema`, naming the first bad field below `under`; undefined when nothing. */
export function shapeProblem(
  schema: z.ZodMiniType,
  value: unknown,
  under: readonly PropertyKey[] = [],
): string | undefined {
  const parsed = z.safeParse(schema, value);
  return parsed.success ? undefined : describeIssues(parsed.error.issues, under, ruleOfIssue);
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `reason` of an error answer's body, when it has one. */
export function reasonOf(answer: Answer): string | undefined {
  const json = answer.json;
  return isJsonObject(json) && typeof json.reason === 'string' ? json.reason : undefined;
}

/** Whether the answer's media type is JSON. */
export function isJsonAnswer(answer: Answer): boolean {
  return /^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(answer.headers.get('content-type') ?? '');
}

/** What is wrong with an answer that should be `status` with `reason`; undefined when nothing. */
export function refusalProblem(answer: Answer, status: number, reason: string): string | undefined {
  if (answer.status !== status || reasonOf(answer) !== reason)
    return `expected ${status} ${reason}`;
  return undefined;
}

/** What is wrong with an error answer's body (docs/protocol.md, "Error bodies"); undefined when nothing. */
export function errorBodyProblem(answer: Answer): string | undefined {
  if (answer.tooLarge) return `the answer is ${TOO_LARGE}`;
  if (!isJsonAnswer(answer))
    return `Content-Type is ${answer.headers.get('content-type') ?? 'missing'}, not application/json`;
  if (answer.json === undefined) return 'the body is not JSON';
  const problem = shapeProblem(errorBodySchema, answer.json);
  if (problem) return `the body does not have the error shape: ${problem}`;
  const statusCode = (answer.json as { statusCode: number }).statusCode;
  if (statusCode !== answer.status)
    return `statusCode is ${statusCode}, but the HTTP status is ${answer.status}`;
  return undefined;
}

/** What is wrong with a success envelope holding `schema`; undefined when nothing. */
export function envelopeProblem(answer: Answer, schema: z.ZodMiniType): string | undefined {
  if (answer.tooLarge) return `the answer is ${TOO_LARGE}`;
  if (!isJsonAnswer(answer))
    return `Content-Type is ${answer.headers.get('content-type') ?? 'missing'}, not application/json`;
  const json = answer.json;
  if (!isJsonObject(json)) return 'the body is not a JSON object';
  if (json.status !== 'success') return `status is ${JSON.stringify(json.status)}, not "success"`;
  return shapeProblem(schema, json.response, ['response']);
}
