/**
 * One line for a failed zod check, shared by the client's refusals and protocol errors and by the
 * service's 422 answers, so both sides name a bad field the same way.
 */
import type * as z from 'zod/mini';

/**
 * Renders zod issues as one line that names the first bad field, its path prefixed with `under`
 * (such as `['response', 'result']` for a value checked on its own).
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  under: readonly PropertyKey[] = [],
): string {
  const first = issues[0];
  if (!first) return 'invalid value';
  const steps = [...under, ...first.path];
  const path = steps.length > 0 ? steps.map(String).join('.') : '(root)';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${path}: ${first.message}${more}`;
}
