/**
 * Checks a body's `params` against the task's schema (docs/protocol.md, "Submit"): the same check
 * for every POST endpoint, made before any run exists.
 */
import * as z from 'zod/mini';
import { describeIssues, ruleOfIssue } from '../protocol/describe-issues.js';
import type { AnyTaskDefinition } from './define-task.js';
import { ServiceError } from './service-error.js';

/**
 * The params as the task's schema parses them; throws 422 `INVALID_PARAMS` when they break it, and
 * 400 `MALFORMED_BODY` when they nest too deeply for the schema to walk.
 */
export function checkParams(
  definition: AnyTaskDefinition,
  params: Record<string, unknown>,
): unknown {
  let parsed;
  try {
    parsed = z.safeParse(definition.params, params);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new ServiceError(400, 'MALFORMED_BODY', 'The body nests too deeply.');
    }
    throw error;
  }
  if (!parsed.success) {
    throw new ServiceError(
      422,
      'INVALID_PARAMS',
      `Invalid params: ${describeIssues(parsed.error.issues, [], ruleOfIssue)}`,
    );
  }
  return parsed.data;
}
