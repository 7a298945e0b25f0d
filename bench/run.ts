/**
 * Runs every benchmark in bench/ (`npm run bench`), prints each one's table, then one summary
 * table of every goal under a line naming the machine. A benchmark module's default export resolves
 * to a {@link BenchReport}.
 *
 * `npm run bench -- --json <file>` (or `TASKWIRE_BENCH_JSON=<file>`) also writes the summary as JSON,
 * which `bench/readme-table.ts` turns into CONTRIBUTING.md's table. `--only <name>[,<name>]` runs
 * some benchmarks alone, for development; such a run is marked incomplete.
 *
 * Exits with 1 when a benchmark fails to run or reads wrong data (a `MISMATCH` cell); a missed goal
 * is reported, not failed: timings vary with the machine.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchGoal, BenchReport, BenchRow } from './bench-report.js';
import { describeMachine, finishMachine, machineLine, type MachineInfo } from './machine.js';

/** Every benchmark, by file name (without extension), in the order they run. */
const benches: Record<string, () => Promise<{ default: () => Promise<BenchReport> }>> = {
  'stream-throughput': () => import('./stream-throughput.js'),
  'hooks-stream-first-event': () => import('./hooks-stream-first-event.js'),
  'hooks-stream-resume': () => import('./hooks-stream-resume.js'),
  'hooks-stream-commits': () => import('./hooks-stream-commits.js'),
  'hooks-poll-sharing': () => import('./hooks-poll-sharing.js'),
  'hooks-tab-poll-sharing': () => import('./hooks-tab-poll-sharing.js'),
  'hooks-stream-memory': () => import('./hooks-stream-memory.js'),
  'event-log-memory': () => import('./event-log-memory.js'),
  'relay-resumable-stream': () => import('./relay-resumable-stream.js'),
};

/** The other modules of bench/: shared code and tools, not benchmarks. */
const helpers = [
  'bench-report',
  'hooks-dom',
  'hooks-kit',
  'machine',
  'readme-table',
  'resumable-kit',
  'run',
];

/** What `--json` writes: the machine, the summary and every bench's own table. */
export interface BenchRunJson {
  /** The command that ran. */
  command: string;
  machine: MachineInfo;
  durationSeconds: number;
  /** Whether every benchmark ran (no `--only`) and none failed to run. */
  complete: boolean;
  /** The benchmarks that ran, by file name. */
  benchmarks: string[];
  goals: BenchGoal[];
  reports: Array<{ benchmark: string; title: string; rows: BenchRow[]; notes: string[] }>;
}

/** Fails when bench/ holds a module that is neither listed as a benchmark nor as a helper. */
function checkEveryBenchIsListed(): void {
  const directory = new URL('.', import.meta.url);
  const modules = readdirSync(directory)
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => basename(file).replace(/\.tsx?$/, ''));
  const unlisted = modules.filter((name) => !(name in benches) && !helpers.includes(name));
  if (unlisted.length > 0) {
    throw new Error(
      `bench/ has modules bench/run.ts does not know: ${unlisted.join(', ')}. List each in \`benches\` (it runs) or in \`helpers\` (it is not a benchmark).`,
    );
  }
}

function printTable(rows: BenchRow[]): void {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells: string[]) =>
    cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ');
  console.log(line(columns));
  console.log(widths.map((width) => '-'.repeat(width)).join('-|-'));
  for (const row of rows) console.log(line(columns.map((column) => String(row[column]))));
}

function printReport(report: BenchReport): void {
  console.log(`\n${report.title}\n`);
  printTable(report.rows);
  for (const note of report.notes) console.log(`\n${note}`);
}

/** The summary's rows: one per goal. */
function summaryRows(goals: BenchGoal[]): BenchRow[] {
  return goals.map((goal) => ({
    benchmark: goal.benchmark,
    measure: goal.measure,
    figure: goal.figure,
    'baseline (same run)': goal.baseline,
    ratio: goal.ratio,
    goal: goal.goal,
    result: goal.verdict,
  }));
}

const { values } = parseArgs({
  options: { json: { type: 'string' }, only: { type: 'string' } },
});
const jsonFile = values.json ?? process.env.TASKWIRE_BENCH_JSON;
const only = values.only?.split(',').map((name) => name.trim());
for (const name of only ?? []) {
  if (!(name in benches))
    throw new Error(`No benchmark ${name}; there are: ${Object.keys(benches).join(', ')}.`);
}
checkEveryBenchIsListed();

const machine = describeMachine();
const began = performance.now();
const names = Object.keys(benches).filter((name) => only === undefined || only.includes(name));
const reports: BenchRunJson['reports'] = [];
const goals: BenchGoal[] = [];
let failed = false;
for (const name of names) {
  try {
    const report = await (await (benches[name] as (typeof benches)[string])()).default();
    printReport(report);
    reports.push({ benchmark: name, title: report.title, rows: report.rows, notes: report.notes });
    goals.push(...report.goals);
    if (report.rows.some((row) => Object.values(row).includes('MISMATCH'))) failed = true;
  } catch (error) {
    failed = true;
    console.error(`\n${name} failed:`, error);
    goals.push({
      benchmark: name,
      measure: 'the benchmark itself',
      figure: `failed: ${error instanceof Error ? error.message : String(error)}`,
      baseline: '—',
      ratio: '—',
      goal: 'runs',
      verdict: 'MISS',
      values: { figure: Number.NaN },
    });
  }
}

const finished = finishMachine(machine);
const durationSeconds = Math.round((performance.now() - began) / 1000);
const complete = only === undefined && reports.length === Object.keys(benches).length;
console.log(`\nSummary${complete ? '' : ' (incomplete run)'}: ${machineLine(finished)}\n`);
printTable(summaryRows(goals));
const missed = goals.filter((goal) => goal.verdict === 'MISS').length;
console.log(
  `\n${goals.filter((goal) => goal.verdict === 'PASS').length} PASS, ${missed} MISS, ${goals.filter((goal) => goal.verdict === 'info').length} shown without a goal; ${durationSeconds} s.`,
);

if (jsonFile !== undefined) {
  const json: BenchRunJson = {
    command: `npm run bench${only === undefined ? '' : ` -- --only ${only.join(',')}`}`,
    machine: finished,
    durationSeconds,
    complete,
    benchmarks: names,
    goals,
    reports,
  };
  writeFileSync(jsonFile, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`Summary written to ${jsonFile}.`);
}
process.exitCode = failed ? 1 : 0;
