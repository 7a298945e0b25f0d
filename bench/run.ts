/**
 * Runs every benchmark in bench/ and prints its table (`npm run bench`). A benchmark module's default
 * export resolves to a {@link BenchReport}.
 */
import type { BenchReport } from './bench-report.js';

const benches: Array<() => Promise<{ default: () => Promise<BenchReport> }>> = [
  () => import('./stream-throughput.js'),
  () => import('./hooks-stream-commits.js'),
  () => import('./hooks-poll-sharing.js'),
  () => import('./hooks-stream-memory.js'),
];

function printTable(report: BenchReport): void {
  const columns = Object.keys(report.rows[0] ?? {});
  const widths = columns.map((column) =>
    Math.max(column.length, ...report.rows.map((row) => String(row[column]).length)),
  );
  const line = (cells: string[]) =>
    cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ');
  console.log(`\n${report.title}\n`);
  console.log(line(columns));
  console.log(widths.map((width) => '-'.repeat(width)).join('-|-'));
  for (const row of report.rows) console.log(line(columns.map((column) => String(row[column]))));
  for (const note of report.notes) console.log(`\n${note}`);
}

let failed = false;
for (const load of benches) {
  const report = await (await load()).default();
  printTable(report);
  if (report.rows.some((row) => Object.values(row).includes('MISMATCH'))) failed = true;
}
process.exitCode = failed ? 1 : 0;
