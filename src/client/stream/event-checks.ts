/**
 * Hand-written checks of the frequent known stream events, so that the stream path pays neither
 * zod/mini's object parse for each of them (zod/mini does not compile object schemas) nor the copies
 * that parse makes. Each one's output equals what the event's schema in `stream-event-schemas.ts`
 * outputs, and each returns `undefined` whenever it cannot be sure: the caller then lets zod decide,
 * which either accepts with that same output or describes what is wrong. The checks are held to this
 * against zod itself in test/client/stream/event-checks.test.ts.
 */
import type { PartialResultEvent, ProgressEvent } from '../../protocol/stream-events.js';
import type { JsonObject } from '../../protocol/records.js';

/**
 * A progress message exactly as the reference service and `JSON.stringify` write it: fixed keys, so
 * no room for a duplicate, an escape or an unknown field, and each number in the JSON grammar.
 */
const CANONICAL_PROGRESS =
  /^\{"type":"task\.progress","percent":-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?,"estimatedSecondsLeft":-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?\}$/;
const PERCENT_AT = '{"type":"task.progress","percent":'.length;
const SECONDS_KEY = ',"estimatedSecondsLeft":';

/** 10^0 to 10^15, each held exactly by a double (up to 10^22 are). */
const POWERS_OF_TEN = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/**
 * The double that `JSON.parse` reads from `data` between `start` and `end`, a number the JSON grammar
 * has already matched. With up to 15 digits (an integer below 2^53, held exactly) and no exponent, it
 * is that integer over a power of ten held exactly, and IEEE division rounds the quotient correctly,
 * as `JSON.parse` rounds (Clinger's fast path): no string is made per number. Any other number is
 * left to `Number()`, which rounds the same way.
 */
function readNumber(data: string, start: number, end: number): number {
  let index = start;
  const negative = data.charCodeAt(index) === 45;
  if (negative) index++;
  let digits = 0;
  let mantissa = 0;
  let scale = 0;
  let fraction = false;
  for (; index < end; index++) {
    const code = data.charCodeAt(index);
    if (code === 46) {
      fraction = true;
    } else if (code > 57 || ++digits > 15) {
      // An exponent (`e`, `E`), or too many digits for an exact integer.
      return Number(data.slice(start, end));
    } else {
      mantissa = mantissa * 10 + (code - 48);
      if (fraction) scale++;
    }
  }
  const value = mantissa / (POWERS_OF_TEN[scale] as number);
  return negative ? -value : value;
}

/**
 * The `task.progress` event of a message's data when the data is in the canonical encoding, read
 * without `JSON.parse`: progress is nine events in ten of a busy stream, and parsing its JSON cost
 * more than everything else done per event. `undefined` for any other data.
 */
export function canonicalProgressEvent(data: string): ProgressEvent | undefined {
  if (!CANONICAL_PROGRESS.test(data)) return undefined;
  const secondsKey = data.indexOf(SECONDS_KEY, PERCENT_AT);
  const percent = readNumber(data, PERCENT_AT, secondsKey);
  const estimatedSecondsLeft = readNumber(data, secondsKey + SECONDS_KEY.length, data.length - 1);
  // 1e999 is valid JSON that reads as Infinity, which `z.number()` refuses.
  if (!Number.isFinite(percent) || !Number.isFinite(estimatedSecondsLeft)) return undefined;
  return { type: 'task.progress', percent, estimatedSecondsLeft };
}

/**
 * `task.progress` from its parsed JSON object, as `progressEventSchema` outputs it: unknown fields
 * dropped, finite numbers only (as `z.number()`).
 */
export function fastProgressEvent(fields: Record<string, unknown>): ProgressEvent | undefined {
  const { type, percent, estimatedSecondsLeft } = fields;
  if (
    type === 'task.progress' &&
    typeof percent === 'number' &&
    Number.isFinite(percent) &&
    typeof estimatedSecondsLeft === 'number' &&
    Number.isFinite(estimatedSecondsLeft)
  ) {
    return { type: 'task.progress', percent, estimatedSecondsLeft };
  }
  return undefined;
}

/**
 * `task.partial-result` from its parsed JSON object, as `partialResultEventSchema` outputs it: unknown
 * fields dropped, and the result object itself where zod's record would copy it. The copy would be
 * equal, since every member of a JSON object is an own, enumerable, string-keyed data property, save
 * a `__proto__` member, which zod leaves out of its copy and is therefore left to zod.
 *
 * `fields` must come from `JSON.parse`: an object built otherwise (a class instance, symbol keys,
 * getters) may be judged differently by zod.
 */
export function fastPartialResultEvent(
  fields: Record<string, unknown>,
): PartialResultEvent | undefined {
  const { type, result } = fields;
  if (
    type !== 'task.partial-result' ||
    typeof result !== 'object' ||
    result === null ||
    Array.isArray(result) ||
    Object.hasOwn(result, '__proto__')
  ) {
    return undefined;
  }
  return { type: 'task.partial-result', result: result as JsonObject };
}
