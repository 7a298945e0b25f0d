/**
 * Memory of `memoryEventLog`: the heap (after `global.gc()`) of a store holding 1,000 ended tasks'
 * logs of 200 messages each, against the bound its docs state (docs/protocol.md, "Resumable streams
 * (0.4)": each kept message costs its UTF-8 bytes and about 90 bytes more), and against the same
 * messages kept as plain strings in arrays, the least any store in the process could hold them in.
 */
import { memoryEventLog } from '../src/server/index.js';
import {
  formatCount,
  goalLine,
  verdict,
  type BenchGoal,
  type BenchReport,
} from './bench-report.js';
import { sleep } from './hooks-kit.js';

const TASKS = 1_000;
const MESSAGES = 200;
/** What docs/protocol.md states a kept message costs beyond its UTF-8 bytes. */
const STATED_OVERHEAD_BYTES = 90;

/**
 * The `index`-th message of task `task`, as a relay appends it: fresh, flat text (decoded from
 * bytes, as a stream's parser hands it over; `JSON.stringify` alone can leave a rope of parts that
 * would weigh on the baseline).
 */
function messageOf(task: number, index: number): string {
  return Buffer.from(messageTextOf(task, index)).toString('utf8');
}

function messageTextOf(task: number, index: number): string {
  if (index === MESSAGES - 1) {
    return JSON.stringify({
      type: 'task.completed',
      result: { url: `https://files.example.com/v/${task}.mp4` },
    });
  }
  if (index % 4 === 0) {
    return JSON.stringify({
      type: 'event.frame-rendered',
      frame: index,
      url: `https://files.example.com/p/${task}/${index}.png`,
      eventId: crypto.randomUUID(),
    });
  }
  return JSON.stringify({
    type: 'task.progress',
    percent: Math.round((index / MESSAGES) * 10_000) / 100,
    estimatedSecondsLeft: MESSAGES - index,
  });
}

function taskIdOf(task: number): string {
  return `00000000-0000-4000-8000-${String(task).padStart(12, '0')}`;
}

async function heapAfterGc(gc: () => void): Promise<number> {
  // A few rounds: finalizers and weak references free more on the next collection.
  for (let round = 0; round < 3; round += 1) {
    gc();
    await sleep(5);
  }
  return process.memoryUsage().heapUsed;
}

/** Heap growth of the store filled with every task's log, and the UTF-8 bytes appended. */
async function measureStore(gc: () => void) {
  const before = await heapAfterGc(gc);
  const log = memoryEventLog();
  let bytes = 0;
  for (let task = 0; task < TASKS; task += 1) {
    const key = { taskName: 'render-video', taskId: taskIdOf(task) };
    await log.create(key, 'bench-user');
    for (let index = 0; index < MESSAGES; index += 1) {
      const message = messageOf(task, index);
      bytes += Buffer.byteLength(message);
      await log.append(key, [message], index === MESSAGES - 1);
    }
  }
  const after = await heapAfterGc(gc);
  // Every log must still be whole: read three of them back to their final message.
  let mismatched = 0;
  for (const task of [0, TASKS / 2, TASKS - 1]) {
    const read = await log.read(
      { taskName: 'render-video', taskId: taskIdOf(task) },
      'bench-user',
      undefined,
      new AbortController().signal,
    );
    let count = 0;
    if (read.status === 'ok')
      for await (const batch of read.batches) {
        for (const entry of batch) count += entry.message.length > 0 ? 1 : 0;
      }
    if (count !== MESSAGES) mismatched += 1;
  }
  await log.close();
  return { growth: after - before, bytes, mismatched };
}

/** Heap growth of the same messages kept as strings in one array per task. */
async function measureStrings(gc: () => void) {
  const before = await heapAfterGc(gc);
  const held = new Map<string, string[]>();
  for (let task = 0; task < TASKS; task += 1) {
    const messages: string[] = [];
    for (let index = 0; index < MESSAGES; index += 1) messages.push(messageOf(task, index));
    held.set(taskIdOf(task), messages);
  }
  const after = await heapAfterGc(gc);
  const kept = held.size;
  held.clear();
  return { growth: after - before, kept };
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** Fills the store and the plain arrays in turn and reports them with the goal. */
export default async function run(): Promise<BenchReport> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const benchmark = 'memoryEventLog memory';
  const count = TASKS * MESSAGES;
  const measure = `heap (after gc) of ${formatCount(TASKS)} ended tasks' logs of ${MESSAGES} messages, default limits`;
  if (gc === undefined) {
    const notMeasured: BenchGoal = {
      benchmark,
      measure,
      figure: 'not measured: run node with --expose-gc (npm run bench does)',
      baseline: '—',
      ratio: '—',
      goal: `≤ UTF-8 bytes + ${STATED_OVERHEAD_BYTES} B per message (docs/protocol.md)`,
      verdict: 'MISS',
      values: { figure: Number.NaN },
    };
    return {
      title: benchmark,
      rows: [{ result: 'not run' }],
      notes: [goalLine(notMeasured)],
      goals: [notMeasured],
    };
  }
  const strings = await measureStrings(gc);
  const store = await measureStore(gc);
  const bound = store.bytes + STATED_OVERHEAD_BYTES * count;
  const perMessage = (bytes: number) => `${Math.round(bytes / count)} B per message`;
  const rows = [
    {
      held: 'memoryEventLog()',
      'heap (after gc)': megabytes(store.growth),
      'per message': perMessage(store.growth),
      'logs read back whole': store.mismatched === 0 ? 'ok' : 'MISMATCH',
    },
    {
      held: 'plain strings, one array per task',
      'heap (after gc)': megabytes(strings.growth),
      'per message': perMessage(strings.growth),
      'logs read back whole': strings.kept === TASKS ? 'ok' : 'MISMATCH',
    },
    {
      held: 'stated bound: UTF-8 bytes + 90 B per message',
      'heap (after gc)': megabytes(bound),
      'per message': perMessage(bound),
      'logs read back whole': '—',
    },
  ];
  const goals: BenchGoal[] = [
    {
      benchmark,
      measure: `${measure} (${megabytes(store.bytes)} of messages)`,
      figure: `${megabytes(store.growth)} (${perMessage(store.growth)})`,
      baseline: `the messages as plain strings: ${megabytes(strings.growth)}`,
      ratio: `${(store.growth / strings.growth).toFixed(2)}×`,
      goal: `≤ ${megabytes(bound)}: UTF-8 bytes + ${STATED_OVERHEAD_BYTES} B per message (docs/protocol.md)`,
      verdict: verdict(store.growth <= bound && store.mismatched === 0),
      values: {
        figure: store.growth,
        baseline: strings.growth,
        ratio: store.growth / strings.growth,
      },
    },
  ];
  return {
    title: `memoryEventLog memory: ${formatCount(TASKS)} ended tasks' logs of ${MESSAGES} messages (${formatCount(count)} messages), against plain strings and the bound docs/protocol.md states`,
    rows,
    notes: [
      `Heap used after global.gc() (three rounds) before and after filling, each in turn in one process; the messages are progress events, custom events with a URL and an eventId, and a final event, made afresh and flat for each (decoded from bytes), as a relay appends them. The store's three logs read back whole is a check that the store kept every message.`,
      ...goals.map(goalLine),
    ],
    goals,
  };
}
