/** What every benchmark module reports to `bench/run.ts`, which prints it as a table. */

/** One row of a bench's table: column name to cell. */
export interface BenchRow {
  [column: string]: string | number;
}

/** A bench's table, with notes printed under it. A cell of `MISMATCH` makes `npm run bench` fail. */
export interface BenchReport {
  title: string;
  rows: BenchRow[];
  notes: string[];
}
