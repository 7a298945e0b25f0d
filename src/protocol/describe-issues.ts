/**
 * One line for a failed zod check, shared by the client's refusals and protocol errors and by the
 * service's 422 answers, so both sides name a bad field the same way.
 */
import type * as z from 'zod/mini';

/** Turns one zod issue into the words after its path. */
export type IssueWording = (issue: z.core.$ZodIssue) => string;

/** zod's own message for an issue: "Invalid input" for most of them under `zod/mini`. */
const zodMessage: IssueWording = (issue) => issue.message;

/**
 * Renders zod issues as one line that names the first bad field, its path prefixed with `under`
 * (such as `['response', 'result']` for a value checked on its own), then what is wrong with it:
 * zod's message by default, or the words of `wording` (the client words its params refusals by the
 * rule broken, such as `must be at most 8`).
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  under: readonly PropertyKey[] = [],
  wording: IssueWording = zodMessage,
): string {
  const first = issues[0];
  if (!first) return 'invalid value';
  const steps = [...under, ...first.path];
  const path = steps.length > 0 ? steps.map(String).join('.') : '(root)';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${path}: ${wording(first)}${more}`;
}

/** The unit of a size limit: a number has none, a string counts characters, a list items. */
function unitOf(origin: string, limit: number | bigint): string {
  switch (origin) {
    case 'string':
      return ` character${limit === 1 ? '' : 's'}`;
    case 'array':
    case 'set':
      return ` item${limit === 1 ? '' : 's'}`;
    case 'file':
      return ' bytes';
    default:
      return '';
  }
}

/**
 * The rule an issue broke, in words a person can act on (`must be at most 8`), since `zod/mini`
 * carries no messages of its own (its locales would cost ninety kB). A message the schema's author
 * wrote is kept. Used where people read the result: a params check and the service's 422 answer.
 */
export const ruleOfIssue: IssueWording = (issue) => {
  if (issue.message !== '' && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}`;
    case 'too_big': {
      const bound = issue.exact ? 'exactly' : issue.inclusive === false ? 'less than' : 'at most';
      return `must be ${bound} ${issue.maximum}${unitOf(issue.origin, issue.maximum)}`;
    }
    case 'too_small': {
      const bound = issue.exact ? 'exactly' : issue.inclusive === false ? 'more than' : 'at least';
      return `must be ${bound} ${issue.minimum}${unitOf(issue.origin, issue.minimum)}`;
    }
    case 'invalid_format':
      return issue.format === 'regex' && issue.pattern
        ? `must match ${issue.pattern}`
        : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_value':
      return `must be ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'matches none of the allowed shapes';
    default:
      return 'is invalid';
  }
};
