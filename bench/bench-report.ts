/**
 * What every benchmark module reports to `bench/run.ts`: a detailed table with notes, and one
 * {@link BenchGoal} per goal for the summary table (and its JSON, which `bench/readme-table.ts`
 * turns into CONTRIBUTING.md's table).
 */

/** One row of a bench's table: column name to cell. */
export interface BenchRow {
  [column: string]: string | number;
}

/** `PASS` when the goal is met, `MISS` when not, `info` for a figure shown without a goal. */
export type BenchVerdict = 'PASS' | 'MISS' | 'info';

/** One goal of a benchmark: our figure, the baseline measured in the same run, and the verdict. */
export interface BenchGoal {
  /** Which benchmark, e.g. `useTaskStream commits`. */
  benchmark: string;
  /** What the figure counts or times, e.g. `commits showing events, 10,000 events in one chunk`. */
  measure: string;
  /** Our figure, formatted with its unit. */
  figure: string;
  /** The same measure for the baseline, measured in the same run, named; `—` when there is none. */
  baseline: string;
  /** How the figure compares with the baseline, e.g. `13.8× fewer`; `—` when there is no baseline. */
  ratio: string;
  /** The goal, e.g. `≤ 1 per frame`; `—` for a figure shown without a goal. */
  goal: string;
  verdict: BenchVerdict;
  /** The raw numbers behind `figure`, `baseline` and `ratio`, for machines reading the JSON. */
  values: { figure: number; baseline?: number; ratio?: number };
}

/** A bench's table, with notes printed under it and its goals. A cell of `MISMATCH` makes `npm run bench` fail. */
export interface BenchReport {
  title: string;
  rows: BenchRow[];
  notes: string[];
  goals: BenchGoal[];
}

/** `PASS` or `MISS`. */
export function verdict(met: boolean): BenchVerdict {
  return met ? 'PASS' : 'MISS';
}

/** A whole number with thousands separators, `12,345`. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en');
}

/** How many times fewer `ours` is than `baseline`: `13.8× fewer`, `same`, or `1.2× more`. */
export function fewerText(ours: number, baseline: number, unit = ''): string {
  const suffix = unit === '' ? '' : ` ${unit}`;
  if (ours === baseline) return 'same';
  if (ours === 0) return `none against ${baseline}`;
  const ratio = baseline / ours;
  return ratio >= 1
    ? `${ratio.toFixed(1)}× fewer${suffix}`
    : `${(1 / ratio).toFixed(1)}× more${suffix}`;
}

/** The goal line printed under a bench's table: verdict, goal and figures. */
export function goalLine(goal: BenchGoal): string {
  const against = goal.baseline === '—' ? '' : `; ${goal.baseline}`;
  const ratio = goal.ratio === '—' ? '' : ` (${goal.ratio})`;
  return `${goal.verdict.padEnd(4)}  ${goal.benchmark}, ${goal.measure}: ${goal.figure}${against}${ratio}. Goal: ${goal.goal}.`;
}

/** One run's count of requests over the compared window, and whether that window held. */
export interface WindowCount {
  /** Requests counted in the window. */
  inWindow: number;
  /** Whether every mount came before the window's end and the task outlasted it. */
  windowValid: boolean;
}

/**
 * The goal that more watchers of one task (hooks or tabs) make the requests of one, ± 1: each of
 * `others` against `single`, over the same window. `measure` says what was counted and for whom,
 * `baselineName` names `single` (e.g. `1 tab`).
 */
export function equalCountsGoal(options: {
  benchmark: string;
  measure: string;
  baselineName: string;
  single: WindowCount;
  others: readonly WindowCount[];
}): BenchGoal {
  const { benchmark, measure, baselineName, single, others } = options;
  const valid = [single, ...others].every((count) => count.windowValid);
  const distance = (count: WindowCount) => Math.abs(count.inWindow - single.inWindow);
  const ratioOf = (count: WindowCount) => count.inWindow / Math.max(1, single.inWindow);
  const farthest = others.reduce((far, count) => (distance(count) > distance(far) ? count : far));
  return {
    benchmark,
    measure: `${measure}${valid ? '' : ' (window invalid: a mount came late or the task ended early)'}`,
    figure: others.map((count) => `${count.inWindow}`).join(' and '),
    baseline: `${baselineName}: ${single.inWindow}`,
    ratio: others.map((count) => `${ratioOf(count).toFixed(2)}×`).join(' and '),
    goal: 'equal (± 1)',
    verdict: verdict(valid && distance(farthest) <= 1),
    values: { figure: farthest.inWindow, baseline: single.inWindow, ratio: ratioOf(farthest) },
  };
}
