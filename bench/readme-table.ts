/**
 * Renders the JSON of a bench run (`npm run bench -- --json <file>`) as the markdown of the results
 * that CONTRIBUTING.md shows: the machine line and the summary table. Prints it, or with
 * `--write CONTRIBUTING.md` puts it between the `<!-- bench:results -->` and
 * `<!-- /bench:results -->` lines of that file's bench section, formatted with the project's
 * prettier settings. Only a complete run (every benchmark, none failed) is written. `--help` prints
 * the usage.
 *
 *     node --import tsx bench/readme-table.ts /tmp/taskwire-bench.json --write CONTRIBUTING.md
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as prettier from 'prettier';
import { machineLine } from './machine.js';
import type { BenchRunJson } from './run.js';

/** The document the results live in, and the default of `--write`'s prettier settings. */
const TARGET = 'CONTRIBUTING.md';
const USAGE = `Usage: node --import tsx bench/readme-table.ts <run.json> [--write ${TARGET}]

  Prints the results of a bench run (npm run bench -- --json <run.json>) as markdown; with
  --write, puts them between the bench:results markers of that file (a complete run only).`;
const START = '<!-- bench:results -->';
const END = '<!-- /bench:results -->';
const SECTION_START = '<!-- section:bench -->';
const SECTION_END = '<!-- /section:bench -->';

/** A table cell: pipes escaped, line breaks flattened. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** The markdown for one run: where it was measured, a warning when the machine was busy, the table. */
function renderRun(run: BenchRunJson): string {
  const lines = [
    `Measured with \`${run.command}\` (${run.durationSeconds} s) on ${machineLine(run.machine)}.`,
  ];
  const busiest = Math.max(run.machine.load.start, run.machine.load.end ?? 0);
  if (busiest >= run.machine.cores) {
    lines.push(
      '',
      `The machine was busy (1-minute load ${busiest.toFixed(1)} on ${run.machine.cores} cores): timings and throughput are noisy.`,
    );
  }
  if (!run.complete) lines.push('', '**Incomplete run:** not every benchmark ran.');
  lines.push(
    '',
    '| Benchmark | Measure | Figure | Baseline (same run) | Ratio | Goal | Result |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...run.goals.map(
      (goal) =>
        `| ${[goal.benchmark, goal.measure, goal.figure, goal.baseline, goal.ratio, goal.goal, goal.verdict].map(cell).join(' | ')} |`,
    ),
  );
  return `${lines.join('\n')}\n`;
}

/** `document` with the block between the result markers (inside the bench section) replaced by `block`. */
function replaceResults(document: string, block: string, name: string): string {
  const sectionStart = document.indexOf(SECTION_START);
  const sectionEnd = document.indexOf(SECTION_END);
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  const once = (marker: string) => document.split(marker).length === 2;
  if (![SECTION_START, SECTION_END, START, END].every(once))
    throw new Error(
      `${name} needs each of ${SECTION_START}, ${START}, ${END}, ${SECTION_END} once.`,
    );
  if (!(sectionStart < start && start < end && end < sectionEnd))
    throw new Error(
      `${START} … ${END} must sit inside ${SECTION_START} … ${SECTION_END}, in that order.`,
    );
  return `${document.slice(0, start + START.length)}\n\n${block.trimEnd()}\n\n${document.slice(end)}`;
}

const { values, positionals } = parseArgs({
  options: { write: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  allowPositionals: true,
});
if (values.help === true) {
  console.log(USAGE);
  process.exit(0);
}
const [jsonFile] = positionals;
if (jsonFile === undefined || positionals.length > 1) throw new Error(USAGE);
const run = JSON.parse(readFileSync(jsonFile, 'utf8')) as BenchRunJson;
const options = {
  ...(await prettier.resolveConfig(values.write ?? TARGET)),
  parser: 'markdown',
};
const block = await prettier.format(renderRun(run), options);
if (values.write === undefined) {
  process.stdout.write(block);
} else {
  if (!run.complete)
    throw new Error(`${jsonFile} is an incomplete run; ${TARGET} shows complete runs only.`);
  const document = readFileSync(values.write, 'utf8');
  writeFileSync(values.write, replaceResults(document, block, values.write));
  console.log(`Wrote the results of ${jsonFile} into ${values.write}.`);
}
