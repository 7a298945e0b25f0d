import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { describeIssues, ruleOfIssue } from '../../src/protocol/describe-issues.js';

/** The one-line description, with rules, of what `value` breaks in `schema`. */
function explain(schema: z.ZodMiniType, value: unknown): string {
  const parsed = z.safeParse(schema, value);
  if (parsed.success) throw new Error('expected the value to fail');
  return describeIssues(parsed.error.issues, [], ruleOfIssue);
}

describe('ruleOfIssue', () => {
  it('names the rule a field broke, not a bare "Invalid input"', () => {
    const count = z.object({ count: z.number().check(z.minimum(1), z.maximum(8)) });
    expect(explain(count, { count: 9 })).toBe('count: must be at most 8');
    expect(explain(count, { count: 0 })).toBe('count: must be at least 1');
    expect(explain(count, {})).toBe('count: expected a number');
    expect(explain(z.object({ n: z.int() }), { n: 1.5 })).toBe('n: expected an integer');
    expect(explain(z.object({ n: z.number().check(z.lt(3)) }), { n: 3 })).toBe(
      'n: must be less than 3',
    );
  });

  it('counts characters of strings and items of lists', () => {
    expect(explain(z.object({ name: z.string().check(z.maxLength(3)) }), { name: 'abcd' })).toBe(
      'name: must be at most 3 characters',
    );
    expect(
      explain(z.object({ list: z.array(z.string()).check(z.minLength(1)) }), { list: [] }),
    ).toBe('list: must be at least 1 item');
  });

  it('lists allowed values and formats', () => {
    expect(explain(z.object({ kind: z.enum(['a', 'b']) }), { kind: 'c' })).toBe(
      'kind: must be one of "a", "b"',
    );
    expect(explain(z.object({ kind: z.literal('a') }), { kind: 'c' })).toBe('kind: must be "a"');
    expect(explain(z.object({ mail: z.email() }), { mail: 'x' })).toBe(
      'mail: must be a valid email',
    );
    expect(explain(z.object({ code: z.string().check(z.regex(/^x+$/)) }), { code: 'y' })).toBe(
      'code: must match /^x+$/',
    );
  });

  it('keeps a message the schema’s author wrote, and counts further issues', () => {
    const schema = z.object({
      size: z.number().check(z.maximum(2, 'pick a smaller size')),
      name: z.string(),
    });
    expect(explain(schema, { size: 3, name: 1 })).toBe('size: pick a smaller size (and 1 more)');
  });
});

describe('describeIssues', () => {
  it('uses zod’s message unless told the wording, and prefixes the path', () => {
    const parsed = z.safeParse(z.object({ id: z.string() }), { id: 1 });
    expect(parsed.success).toBe(false);
    expect(describeIssues(parsed.error?.issues ?? [], ['response'])).toBe(
      'response.id: Invalid input',
    );
  });
});
