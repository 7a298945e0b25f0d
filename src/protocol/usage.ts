/**
 * The usage record (docs/protocol.md, "Usage and credits"): its schema, and the rule that its total is
 * the sum of the entries that did not fail. Shared by the client (which refuses a record that breaks
 * the rule), the components (which show it) and the reference service (which builds it).
 */
import * as z from 'zod/mini';

/** One tool's line of a usage record (docs/protocol.md, "Usage and credits"). */
export const usageDetailSchema = z.object({
  toolId: z.string(),
  price: z.number().check(z.nonnegative()),
  amount: z.number().check(z.nonnegative()),
  credits: z.number().check(z.nonnegative()),
  failed: z.boolean(),
});
/** One tool's line of a usage record: price × amount = credits, not charged when `failed`. */
export type UsageDetail = {
  /** The tool that was used. */
  toolId: string;
  /** Credits per unit. */
  price: number;
  /** Units used. */
  amount: number;
  /** `price × amount`. */
  credits: number;
  /** Whether the tool failed; a failed line is not charged. */
  failed: boolean;
};

/**
 * How far a sum of fractional credits may stray from its parts before it counts as a mismatch:
 * prices such as 0.1 add up with floating-point error, and a service may round to a few decimals.
 */
export const CREDITS_TOLERANCE = 1e-6;

/** Whether two credit figures agree within {@link CREDITS_TOLERANCE}, relative to their size. */
export function creditsAgree(a: number, b: number): boolean {
  return Math.abs(a - b) <= CREDITS_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * The sum of `credits` over the entries that did not fail, which is what the total must be
 * (docs/protocol.md, "Usage and credits").
 */
export function chargedCredits(details: readonly UsageDetail[]): number {
  let total = 0;
  for (const detail of details) if (!detail.failed) total += detail.credits;
  return total;
}

/**
 * Checks a usage record against its rule (docs/protocol.md, "Usage and credits") and returns what
 * is wrong, or `undefined` when it is consistent. A failed entry may carry its would-be credits or
 * `0`; both are accepted.
 */
export function findUsageInconsistency(usage: Usage): string | undefined {
  for (const [index, detail] of usage.details.entries()) {
    const expected = detail.price * detail.amount;
    if (!creditsAgree(detail.credits, expected) && !(detail.failed && detail.credits === 0)) {
      return `usage.details[${index}].credits is ${detail.credits}, but price × amount is ${expected}`;
    }
  }
  const charged = chargedCredits(usage.details);
  if (!creditsAgree(usage.credits, charged)) {
    return `usage.credits is ${usage.credits}, but the entries that did not fail add up to ${charged}`;
  }
  return undefined;
}

/** The usage record of a task, without the consistency check (for building records). */
export const usageShapeSchema = z.object({
  credits: z.number().check(z.nonnegative()),
  details: z.array(usageDetailSchema),
});
/**
 * Credits charged for a task and their per-tool breakdown (docs/protocol.md, "Usage and credits").
 */
export type Usage = {
  /** The credits charged: the sum of the lines that did not fail. */
  credits: number;
  /** One line per tool. */
  details: UsageDetail[];
};

/**
 * A usage record whose total agrees with its entries (docs/protocol.md, "Usage and credits"); a
 * mismatch is a protocol error.
 */
export const usageSchema = usageShapeSchema.check(
  z.superRefine((usage, context) => {
    const problem = findUsageInconsistency(usage);
    if (problem) context.issues.push({ code: 'custom', message: problem, input: usage });
  }),
);
