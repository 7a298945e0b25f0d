/**
 * The hand checks of the stream path (src/client/stream/event-checks.ts) against zod itself: for
 * every input, a hand check either gives up (`undefined`, and zod decides) or gives exactly zod's
 * output, down to key order, prototypes and the sign of zero. The inputs are event data as it
 * arrives: JSON text, which the stream path parses with `JSON.parse`.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  canonicalProgressEvent,
  fastPartialResultEvent,
  fastProgressEvent,
} from '../../../src/client/stream/event-checks.js';
import {
  partialResultEventSchema,
  progressEventSchema,
} from '../../../src/protocol/stream-event-schemas.js';

/** Deep equality that also tells key order, prototypes, -0 from 0 and a missing key from undefined. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return Object.is(a, b);
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keysOfA = Reflect.ownKeys(a);
  const keysOfB = Reflect.ownKeys(b);
  if (keysOfA.length !== keysOfB.length) return false;
  return keysOfA.every(
    (key, index) =>
      key === keysOfB[index] &&
      same((a as Record<PropertyKey, unknown>)[key], (b as Record<PropertyKey, unknown>)[key]),
  );
}

type Outcome = { ok: true; data: unknown } | { ok: false };

/** What zod makes of event data: the stream path's answer without the hand checks. */
function byZod(schema: z.core.$ZodType, data: string): Outcome {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return { ok: false };
  }
  const parsed = z.safeParse(schema, value);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false };
}

/** A small seeded generator (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number): number => Math.floor(next() * below);
  const pick = <Item>(items: readonly Item[]): Item => items[int(items.length)] as Item;
  const digits = (count: number): string =>
    Array.from({ length: count }, () => String(int(10))).join('');
  return { next, int, pick, digits };
}

type Random = ReturnType<typeof random>;

/** A number in the JSON grammar, of any length, sign and exponent. */
function jsonNumber(rng: Random): string {
  const sign = rng.int(3) === 0 ? '-' : '';
  const whole = rng.int(4) === 0 ? '0' : `${1 + rng.int(9)}${rng.digits(rng.int(25))}`;
  const fraction = rng.int(2) === 0 ? '' : `.${rng.digits(1 + rng.int(25))}`;
  const exponent =
    rng.int(3) === 0
      ? `${rng.pick(['e', 'E'])}${rng.pick(['', '+', '-'])}${rng.digits(1 + rng.int(4))}`
      : '';
  return `${sign}${whole}${fraction}${exponent}`;
}

/** A double as JavaScript writes it, of any magnitude, sometimes an integer. */
function writtenDouble(rng: Random): string {
  const magnitude = 10 ** (rng.int(40) - 20);
  const value = rng.int(3) === 0 ? Math.round(rng.next() * 1e6) : rng.next() * magnitude;
  return JSON.stringify(rng.int(4) === 0 ? -value : value);
}

const canonical = (percent: string, seconds: string): string =>
  `{"type":"task.progress","percent":${percent},"estimatedSecondsLeft":${seconds}}`;

/** Characters that matter to the canonical form and to JSON. */
const MUTATIONS = [...'0123456789.eE+-,:{}[]" \t\n\\/aNxu', '\u00e9', '\u2028', '\ufeff'];

function mutate(rng: Random, text: string): string {
  let result = text;
  for (let count = 1 + rng.int(3); count > 0; count--) {
    const at = rng.int(result.length + 1);
    const character = rng.pick(MUTATIONS);
    const kind = rng.int(3);
    if (kind === 0) result = result.slice(0, at) + character + result.slice(at);
    else if (kind === 1) result = result.slice(0, at) + result.slice(at + 1);
    else result = result.slice(0, at) + character + result.slice(at + 1);
  }
  return result;
}

/** Checks the canonical progress reader on one data string; returns whether it read it. */
function checkCanonical(data: string): boolean {
  const fast = canonicalProgressEvent(data);
  if (fast === undefined) return false;
  const slow = byZod(progressEventSchema, data);
  expect(slow.ok, data).toBe(true);
  expect(same(fast, slow.ok ? slow.data : undefined), data).toBe(true);
  return true;
}

const NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '0.5',
  '-0.0',
  '0.1',
  '0.30000000000000004',
  '100',
  '99.99999999999999',
  '1e5',
  '1E+5',
  '1e-7',
  '-2.5E-3',
  '1.5e300',
  '1.7976931348623157e308',
  '5e-324',
  '2.2250738585072014e-308',
  '9007199254740993',
  '123456789012345',
  '999999999999999',
  '1000000000000000',
  '-99999999999999.9',
  '0.00000000000001',
  '0.000000000000001',
  '4.35',
  '8.7',
  '0.7',
  '-1.1',
  '123456789012345678901234567890',
  '0.1000000000000000055511151231257827021181583404541015625',
  '1e-400',
];
const NOT_NUMBERS = [
  '01',
  '+1',
  '.5',
  '5.',
  '1e',
  '1e+',
  '-',
  '--1',
  '0x10',
  'NaN',
  'Infinity',
  '-Infinity',
  '1_000',
  '١',
  '"1"',
  'null',
  'true',
  '[1]',
  '{}',
  '',
  ' 1',
  '1 ',
];

describe('canonicalProgressEvent', () => {
  it('reads every JSON number exactly as JSON.parse and progressEventSchema do', () => {
    for (const percent of NUMBERS) {
      for (const seconds of NUMBERS) {
        expect(checkCanonical(canonical(percent, seconds)), canonical(percent, seconds)).toBe(true);
      }
    }
  });

  it('leaves numbers JSON reads as Infinity to zod, which refuses them', () => {
    for (const huge of ['1e999', '-1e999', '1.8e308', `1${'0'.repeat(400)}`]) {
      for (const data of [canonical(huge, '1'), canonical('1', huge)]) {
        expect(canonicalProgressEvent(data), data).toBeUndefined();
        expect(byZod(progressEventSchema, data).ok, data).toBe(false);
      }
    }
  });

  it('gives up on anything but a JSON number in either place', () => {
    for (const wrong of NOT_NUMBERS) {
      expect(canonicalProgressEvent(canonical(wrong, '1')), wrong).toBeUndefined();
      expect(canonicalProgressEvent(canonical('1', wrong)), wrong).toBeUndefined();
    }
  });

  it('gives up on every other spelling of a progress event, whatever zod makes of it', () => {
    const others = [
      '{"type":"task.progress","estimatedSecondsLeft":2,"percent":1}',
      '{"percent":1,"type":"task.progress","estimatedSecondsLeft":2}',
      '{ "type":"task.progress","percent":1,"estimatedSecondsLeft":2}',
      '{"type":"task.progress","percent":1,"estimatedSecondsLeft":2 }',
      '{"type": "task.progress","percent":1,"estimatedSecondsLeft":2}',
      '{"type":"task.progress","percent":1,"estimatedSecondsLeft":2,"extra":3}',
      '{"type":"task.progress","percent":1,"percent":2,"estimatedSecondsLeft":2}',
      '{"type":"task.progress","percent":1,"estimatedSecondsLeft":2,"percent":"x"}',
      '{"type":"task.progress","__proto__":{},"percent":1,"estimatedSecondsLeft":2}',
      '{"type":"task\\u002eprogress","percent":1,"estimatedSecondsLeft":2}',
      '{"type":"task.progress","per\\u0063ent":1,"estimatedSecondsLeft":2}',
      '{"type":"task.progress","percent":1,"estimatedSecondsLeft":2}\n',
      '\ufeff{"type":"task.progress","percent":1,"estimatedSecondsLeft":2}',
      '{"type":"task.progress","percent":1,"estimatedSecondsLeft":2}}',
      '{"type":"task.progress","percent":1,"estimatedSecondsLeft":2}x',
      '{"type":"task.progress","percent":1}',
      '{"type":"task.progress","percent":1,"estimatedSecondsLeft":null}',
      '{"type":"task.progresses","percent":1,"estimatedSecondsLeft":2}',
      '{"type":"task.partial-result","percent":1,"estimatedSecondsLeft":2}',
      '[{"type":"task.progress","percent":1,"estimatedSecondsLeft":2}]',
      '',
    ];
    for (const data of others) expect(canonicalProgressEvent(data), data).toBeUndefined();
  });

  it('agrees with JSON.parse and zod on 20,000 generated and mutated progress events', () => {
    const rng = random(20_241_123);
    let read = 0;
    for (let round = 0; round < 20_000; round++) {
      const make = rng.int(3) === 0 ? writtenDouble : jsonNumber;
      const data = canonical(make(rng), make(rng));
      if (round % 2 === 0) {
        if (checkCanonical(data)) read++;
        else expect(byZod(progressEventSchema, data).ok, data).toBe(false);
      } else {
        checkCanonical(mutate(rng, data));
      }
    }
    // Most generated events are in the canonical form, so most must take the fast path.
    expect(read).toBeGreaterThan(8_000);
  });
});

/** A JSON value, written by hand so that `__proto__` keys, `-0` and huge numbers reach JSON.parse. */
function jsonText(rng: Random, depth: number): string {
  const keys = [
    'type',
    'result',
    'percent',
    'estimatedSecondsLeft',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'prototype',
    '0',
    '1',
    '10',
    '-1',
    '',
    'a',
    'é',
  ];
  switch (rng.int(depth > 2 ? 5 : 7)) {
    case 0:
      return rng.pick(['0', '-0', '1', '-1', '0.5', '1e308', '1e999', '-1e999', '5e-324']);
    case 1:
      return jsonNumber(rng);
    case 2:
      return JSON.stringify(rng.pick(['', 'x', 'task.progress', '__proto__', '1']));
    case 3:
      return rng.pick(['null', 'true', 'false']);
    case 4:
      return rng.pick(['{}', '[]']);
    case 5:
      return `[${Array.from({ length: rng.int(4) }, () => jsonText(rng, depth + 1)).join(',')}]`;
    default:
      return `{${Array.from(
        { length: rng.int(5) },
        () => `${JSON.stringify(rng.pick(keys))}:${jsonText(rng, depth + 1)}`,
      ).join(',')}}`;
  }
}

/** An event object of `type`, with the given fields, some others, and sometimes fields missing. */
function eventText(rng: Random, type: string, fields: string[]): string {
  const members = [`"type":${JSON.stringify(type)}`];
  for (const field of fields) {
    if (rng.int(8) !== 0) members.push(`${JSON.stringify(field)}:${jsonText(rng, 1)}`);
  }
  for (let extra = rng.int(3); extra > 0; extra--) {
    members.push(
      `${JSON.stringify(rng.pick(['extra', '__proto__', 'type', ...fields]))}:${jsonText(rng, 1)}`,
    );
  }
  for (let index = members.length - 1; index > 0; index--) {
    const other = rng.int(index + 1);
    [members[index], members[other]] = [members[other] as string, members[index] as string];
  }
  return `{${members.join(',')}}`;
}

describe('fastProgressEvent', () => {
  const check = (text: string): void => {
    const fields = JSON.parse(text) as Record<string, unknown>;
    const fast = fastProgressEvent(fields);
    const slow = z.safeParse(progressEventSchema, fields);
    // Never a different answer, and never a give-up on what zod accepts.
    expect(fast !== undefined, text).toBe(slow.success);
    if (fast !== undefined) expect(same(fast, slow.data), text).toBe(true);
  };

  it('gives the very output of zod on tricky progress events', () => {
    const texts = [
      '{"type":"task.progress","percent":1,"estimatedSecondsLeft":2}',
      '{"estimatedSecondsLeft":2,"percent":1,"type":"task.progress"}',
      '{"type":"task.progress","percent":-0,"estimatedSecondsLeft":-0.0}',
      '{"type":"task.progress","percent":1e308,"estimatedSecondsLeft":5e-324}',
      '{"type":"task.progress","percent":1e999,"estimatedSecondsLeft":2}',
      '{"type":"task.progress","percent":1,"estimatedSecondsLeft":-1e999}',
      '{"type":"task.progress","percent":1,"estimatedSecondsLeft":2,"extra":{"deep":[1]}}',
      '{"type":"task.progress","percent":1,"estimatedSecondsLeft":2,"__proto__":{"x":1}}',
      '{"type":"task.progress","__proto__":{"percent":1,"estimatedSecondsLeft":2}}',
      '{"type":"task.progress","percent":"1","estimatedSecondsLeft":2}',
      '{"type":"task.progress","percent":null,"estimatedSecondsLeft":2}',
      '{"type":"task.progress","percent":[1],"estimatedSecondsLeft":2}',
      '{"type":"task.progress","percent":1}',
      '{"type":"task.progress"}',
      '{"type":"task.progresss","percent":1,"estimatedSecondsLeft":2}',
      '{"percent":1,"estimatedSecondsLeft":2}',
      '{"type":null,"percent":1,"estimatedSecondsLeft":2}',
      '{"type":"task.progress","percent":1,"percent":"no","estimatedSecondsLeft":2}',
      '{"type":"task.progress","percent":"no","percent":1,"estimatedSecondsLeft":2}',
    ];
    for (const text of texts) check(text);
  });

  it('gives the very output of zod on 10,000 generated progress events', () => {
    const rng = random(7);
    for (let round = 0; round < 10_000; round++) {
      const type =
        rng.int(10) === 0 ? rng.pick(['task.progres', 'event.progress']) : 'task.progress';
      check(eventText(rng, type, ['percent', 'estimatedSecondsLeft']));
    }
  });
});

describe('fastPartialResultEvent', () => {
  const check = (text: string): void => {
    const fields = JSON.parse(text) as Record<string, unknown>;
    const fast = fastPartialResultEvent(fields);
    const slow = z.safeParse(partialResultEventSchema, fields);
    const result = fields.result;
    // zod's copy of a result leaves out a `__proto__` member: the one case left to zod.
    const leftToZod =
      typeof result === 'object' && result !== null && Object.hasOwn(result, '__proto__');
    expect(fast !== undefined, text).toBe(slow.success && !leftToZod);
    if (fast !== undefined) expect(same(fast, slow.data), text).toBe(true);
  };

  it('gives the very output of zod on tricky partial results', () => {
    const texts = [
      '{"type":"task.partial-result","result":{}}',
      '{"result":{"url":"https://x.test/1"},"type":"task.partial-result"}',
      '{"type":"task.partial-result","result":{"b":1,"a":2,"10":3,"1":4,"-1":5,"":6}}',
      '{"type":"task.partial-result","result":{"nested":{"deep":[1,{"x":null}]},"n":-0}}',
      '{"type":"task.partial-result","result":{"constructor":1,"toString":"x","valueOf":{}}}',
      '{"type":"task.partial-result","result":{"constructor":{"prototype":{}}}}',
      '{"type":"task.partial-result","result":{"a":1},"extra":2,"usage":{"credits":1}}',
      '{"type":"task.partial-result","result":{"a":1},"__proto__":{"result":2}}',
      '{"type":"task.partial-result","result":{"__proto__":{"polluted":true},"a":1}}',
      '{"type":"task.partial-result","result":{"__proto__":null}}',
      '{"type":"task.partial-result","result":null}',
      '{"type":"task.partial-result","result":[]}',
      '{"type":"task.partial-result","result":[{"a":1}]}',
      '{"type":"task.partial-result","result":"done"}',
      '{"type":"task.partial-result","result":1}',
      '{"type":"task.partial-result"}',
      '{"type":"task.partial-result","result":{"a":1},"result":null}',
      '{"type":"task.partial-result","result":null,"result":{"a":1}}',
      '{"type":"task.completed","result":{"a":1}}',
      '{"result":{"a":1}}',
    ];
    for (const text of texts) check(text);
  });

  it('returns the parsed result itself, which nothing else holds, where zod copies it', () => {
    const fields = JSON.parse('{"type":"task.partial-result","result":{"a":[1]}}') as {
      result: object;
    };
    expect(fastPartialResultEvent(fields)?.result).toBe(fields.result);
  });

  it('gives the very output of zod on 10,000 generated partial results', () => {
    const rng = random(11);
    for (let round = 0; round < 10_000; round++) {
      const type = rng.int(10) === 0 ? 'task.completed' : 'task.partial-result';
      check(eventText(rng, type, ['result']));
    }
  });
});
