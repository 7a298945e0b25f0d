/**
 * The report as people and CI read it: a table of one line per check with the details of each
 * failure, and a JUnit XML document of one test case per check.
 */
import type { CheckReport, CheckResult } from './check-types.js';
import { escapeControl } from './shown-text.js';

const LABELS = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skipped: 'SKIP' } as const;

/** What a check's level means, under a failure or a warning. */
const LEVELS = {
  required: 'required: the client and hooks rely on it',
  contract: "taskwire's own contract, beyond the interface document: the client works without it",
} as const;

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line, index) => (index === 0 ? line : `${prefix}${line}`))
    .join('\n');
}

/** The summary line: how many passed, failed and were skipped, and how many tasks were started. */
export function summaryOf(report: CheckReport): string {
  return `${report.results.length} checks: ${report.passed} passed, ${report.failed} failed, ${report.warned} warned, ${report.skipped} skipped. Started ${report.tasksStarted} task${report.tasksStarted === 1 ? '' : 's'} (at most 20) in ${(report.durationMs / 1000).toFixed(1)} s.`;
}

/**
 * The report as a table: one line per check (outcome, id, title), and under a failure or a
 * warning its level, rule, what was expected, what came and the `curl` command; under a skipped
 * check, why.
 */
export function formatCheckReport(report: CheckReport): string {
  const width = Math.max(...report.results.map((result) => result.id.length));
  const lines = [
    `taskwire-check ${report.baseUrl}`,
    `task ${report.task} ${JSON.stringify(report.params)}`,
    '',
  ];
  for (const result of report.results) {
    const note = result.outcome === 'pass' && result.note ? ` (${result.note})` : '';
    lines.push(`${LABELS[result.outcome]}  ${result.id.padEnd(width)}  ${result.title}${note}`);
    const pad = ' '.repeat(6 + width + 2);
    if (result.outcome === 'skipped') lines.push(`${pad}skipped: ${result.why ?? ''}`);
    if (result.outcome === 'fail' || result.outcome === 'warn') {
      const detail = `${pad}          `;
      lines.push(`${pad}level:    ${LEVELS[result.level]}`);
      lines.push(`${pad}rule:     ${result.rule}`);
      lines.push(`${pad}expected: ${indent(result.expected ?? '', detail)}`);
      lines.push(`${pad}observed: ${indent(result.observed ?? '', detail)}`);
      if (result.curl) lines.push(`${pad}curl:     ${indent(result.curl, detail)}`);
    }
  }
  lines.push('', summaryOf(report));
  return shownLines(lines.join('\n'));
}

/**
 * The report as JSON for `--json`: JSON escapes C0 controls by itself but writes C1 controls and
 * the Unicode separators raw, so those are written as `\u` escapes too (the same string once parsed).
 */
export function checkReportJson(report: CheckReport): string {
  return JSON.stringify(report, null, 2).replace(
    /[\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `text` with every control character escaped but the line feeds between its lines. */
function shownLines(text: string): string {
  return text.split('\n').map(escapeControl).join('\n');
}

function escapeXml(text: string): string {
  return (
    shownLines(text)
      // Characters XML 1.0 cannot hold at all (the controls are escaped above).
      .replace(/[\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/**
 * A test case per check. JUnit has no warning: a warned check is a passing case whose output says
 * what a failure would, so a CI shows it without failing.
 */
function testCase(result: CheckResult): string {
  const name = `${result.id}: ${result.title}`;
  const classname = `taskwire-check.${result.id.split('.')[0]}`;
  const open = `    <testcase classname="${escapeXml(classname)}" name="${escapeXml(name)}" time="0"`;
  if (result.outcome === 'pass') return `${open} />`;
  if (result.outcome === 'skipped')
    return `${open}>\n      <skipped message="${escapeXml(result.why ?? '')}" />\n    </testcase>`;
  const body = [
    `rule: ${result.rule}`,
    `expected: ${result.expected ?? ''}`,
    `observed: ${result.observed ?? ''}`,
    ...(result.curl ? [`curl: ${result.curl}`] : []),
  ].join('\n');
  if (result.outcome === 'warn')
    return `${open}>\n      <system-out>${escapeXml(`WARN: ${LEVELS.contract}\n${body}`)}</system-out>\n    </testcase>`;
  return `${open}>\n      <failure message="${escapeXml(result.observed ?? '')}" type="${escapeXml(result.rule)}">${escapeXml(body)}</failure>\n    </testcase>`;
}

/** The report as JUnit XML, one test case per check, for a CI's test report. */
export function toJUnitXml(report: CheckReport): string {
  const counts = `tests="${report.results.length}" failures="${report.failed}" errors="0" skipped="${report.skipped}" time="${(report.durationMs / 1000).toFixed(3)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="taskwire-check" ${counts}>`,
    `  <testsuite name="${escapeXml(`taskwire-check ${report.baseUrl}`)}" ${counts}>`,
    ...report.results.map(testCase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
