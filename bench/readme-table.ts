/**
 * Renders the JSON of a bench run (`npm run bench -- --json <file>`) as the README's markdown: the
 * machine line and the summary table. Prints it, or with `--write README.md` puts it between the
 * `<!-- bench:results -->` and `<!-- /bench:results -->` lines of the README's bench section, formatted
 * with the project's prettier settings. Only a complete run (every benchmark, none failed) is written.
 *
 *     node --import tsx bench/readme-table.ts /tmp/taskwire-bench.json --write README.md
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as prettier from 'prettier';
import { machineLine } from './machine.js';
import type { BenchRunJson } from './run.js';

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

/** `readme` with the block between the result markers (inside the bench section) replaced by `block`. */
function replaceResults(readme: string, block: string): string {
  const sectionStart = readme.indexOf(SECTION_START);
  const sectionEnd = readme.indexOf(SECTION_END);
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  const once = (marker: string) => readme.split(marker).length === 2;
  if (![SECTION_START, SECTION_END, START, END].every(once))
    throw new Error(
      `The README needs each of ${SECTION_START}, ${START}, ${END}, ${SECTION_END} once.`,
    );
  if (!(sectionStart < start && start < end && end < sectionEnd))
    throw new Error(
      `${START} … ${END} must sit inside ${SECTION_START} … ${SECTION_END}, in that order.`,
    );
  return `${readme.slice(0, start + START.length)}\n\n${block.trimEnd()}\n\n${readme.slice(end)}`;
}

const { values, positionals } = parseArgs({
  options: { write: { type: 'string' } },
  allowPositionals: true,
});
const [jsonFile] = positionals;
if (jsonFile === undefined || positionals.length > 1) {
  throw new Error('Usage: node --import tsx bench/readme-table.ts <run.json> [--write README.md]');
}
const run = JSON.parse(readFileSync(jsonFile, 'utf8')) as BenchRunJson;
const options = {
  ...(await prettier.resolveConfig(values.write ?? 'README.md')),
  parser: 'markdown',
};
const block = await prettier.format(renderRun(run), options);
if (values.write === undefined) {
  process.stdout.write(block);
} else {
  if (!run.complete)
    throw new Error(`${jsonFile} is an incomplete run; the README shows complete runs only.`);
  const readme = readFileSync(values.write, 'utf8');
  writeFileSync(values.write, replaceResults(readme, block));
  console.log(`Wrote the results of ${jsonFile} into ${values.write}.`);
}
