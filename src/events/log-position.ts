/**
 * Positions in a task's log (docs/protocol.md, "Resumable streams (0.4)"): a message's sequence
 * number in its task, from 1, written as 16 zero-padded digits, so that the positions of one task
 * order as strings in the order they were appended. A client treats them as opaque.
 */

/** The digits of a position. */
const POSITION_DIGITS = 16;
const POSITION_PATTERN = /^\d{16}$/;

/** The zeros a position is padded with. */
const ZEROS = '0'.repeat(POSITION_DIGITS);

/** The position of the message with sequence number `sequence` (from 1). */
export function formatPosition(sequence: number): string {
  // Sliced zeros rather than `padStart`: a relay formats one position per message.
  const digits = String(sequence);
  return ZEROS.slice(digits.length) + digits;
}

/** The sequence number a position stands for, or `undefined` when `position` is none of ours. */
export function parsePosition(position: string): number | undefined {
  if (!POSITION_PATTERN.test(position)) return undefined;
  const sequence = Number(position);
  return Number.isSafeInteger(sequence) ? sequence : undefined;
}
