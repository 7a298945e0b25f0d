import { describe, expect, it } from 'vitest';
import { describeIssues } from '../../src/protocol/describe-issues.js';
import { findUsageInconsistency, usageSchema } from '../../src/protocol/usage.js';
import { taskRecordSchema } from '../../src/protocol/records.js';

const detail = (
  toolId: string,
  price: number,
  amount: number,
  failed = false,
  credits = price * amount,
) => ({
  toolId,
  price,
  amount,
  credits,
  failed,
});

describe('usageSchema', () => {
  it('accepts a total that is the sum of the entries that did not fail', () => {
    const usage = {
      credits: 7,
      details: [detail('a', 2, 2), detail('b', 3, 1), detail('c', 5, 1, true)],
    };
    expect(usageSchema.safeParse(usage).success).toBe(true);
  });

  it('accepts a failed entry sent as credits 0', () => {
    const usage = { credits: 4, details: [detail('a', 2, 2), detail('c', 5, 1, true, 0)] };
    expect(findUsageInconsistency(usage)).toBeUndefined();
  });

  it('tolerates floating-point error from fractional prices', () => {
    const details = Array.from({ length: 10 }, (_, index) => detail(`t${index}`, 0.1, 1));
    expect(usageSchema.safeParse({ credits: 1, details }).success).toBe(true);
  });

  it('reports a total that disagrees with its entries', () => {
    const usage = { credits: 9, details: [detail('a', 2, 2), detail('c', 5, 1, true)] };
    expect(findUsageInconsistency(usage)).toBe(
      'usage.credits is 9, but the entries that did not fail add up to 4',
    );
    expect(usageSchema.safeParse(usage).success).toBe(false);
  });

  it('reports an entry whose credits are not price × amount', () => {
    const usage = { credits: 5, details: [detail('a', 2, 2, false, 5)] };
    expect(findUsageInconsistency(usage)).toBe(
      'usage.details[0].credits is 5, but price × amount is 4',
    );
  });
});

describe('taskRecordSchema', () => {
  const record = {
    id: 't1',
    status: 'IN_PROGRESS',
    result: null,
    progress: { percent: 10, estimatedSecondsLeft: 3 },
    events: [],
  };

  it('drops unknown fields', () => {
    const parsed = taskRecordSchema.safeParse({ ...record, extra: 1 });
    expect(parsed.success && 'extra' in parsed.data).toBe(false);
    expect(parsed.success).toBe(true);
  });

  it('names the first bad field', () => {
    const parsed = taskRecordSchema.safeParse({ ...record, status: 'DONE' });
    expect(parsed.success).toBe(false);
    expect(describeIssues(parsed.error?.issues ?? [])).toMatch(/^status: /);
  });
});
