/**
 * Each check is proven by a service it catches: the reference service behind a wrapper of its
 * `fetch` that breaks one rule. The check for that rule fails, saying what is wrong (and with a
 * `curl` that holds no token), and every other check ends as it does against the reference service.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS, checkService } from '../../src/check/index.js';
import { checkedService, FAST, TOKENS, WITH_KEEP_ALIVE } from './check-fixtures.js';
import { brokenServices, toleratedServices } from './broken-services.js';

describe('checkService against broken services', () => {
  it('has a broken service for every check', () => {
    const covered = new Set(brokenServices.map((broken) => broken.check));
    expect(CHECKS.map((check) => check.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it.each(brokenServices)('catches $name ($check)', async (broken) => {
    const service = checkedService();
    const send = broken.wrap((request) => service.fetch(request));
    const report = await checkService({
      ...FAST,
      ...(broken.check === 'stream.keep-alive' ? WITH_KEEP_ALIVE : {}),
      ...broken.options,
      baseUrl: 'http://taskwire.test',
      fetch: send,
    });

    const result = report.results.find((candidate) => candidate.id === broken.check)!;
    expect(result.outcome, JSON.stringify(result)).toBe(broken.outcome ?? 'fail');
    expect(result.observed).toMatch(broken.observed);
    expect(result.expected).toBeTruthy();
    expect(result.curl).toMatch(/^curl -i/);
    // A preflight carries no token; every other request shows its tokens as variables.
    if (broken.check !== 'cors.preflight')
      expect(result.curl).toMatch(/"(authorization|x-app-authorization): Bearer \$TASKWIRE_/);

    const others: Record<string, string> = {};
    for (const other of report.results)
      if (other.id !== broken.check) others[other.id] = other.outcome;
    const expected: Record<string, string> = {};
    for (const check of CHECKS) {
      if (check.id === broken.check) continue;
      // The keep-alive check needs a task silent for 3 s: only its own case names one.
      expected[check.id] =
        (check.id === 'stream.keep-alive' && broken.check !== 'stream.keep-alive') ||
        broken.skips?.includes(check.id)
          ? 'skipped'
          : broken.alsoFails?.includes(check.id)
            ? 'fail'
            : 'pass';
    }
    expect(others).toEqual(expected);
    const text = JSON.stringify(report);
    for (const token of TOKENS) expect(text).not.toContain(token);
  });
});

describe('checkService against services the interface document allows', () => {
  it.each(toleratedServices)('fails no check of $name', async (tolerated) => {
    const service = checkedService();
    const report = await checkService({
      ...FAST,
      ...tolerated.options,
      baseUrl: 'http://taskwire.test',
      fetch: tolerated.wrap((request) => service.fetch(request)),
    });
    const failed = report.results.filter((result) => result.outcome === 'fail');
    expect(failed).toEqual([]);
    expect(report.failed).toBe(0);
    const warned = report.results.filter((result) => result.outcome === 'warn');
    expect(warned.map((result) => result.id)).toEqual(tolerated.warns ?? []);
    // A warning says the rule is taskwire's own, and what came.
    for (const result of warned) expect(result).toMatchObject({ level: 'contract' });
    for (const [id, outcome] of Object.entries(tolerated.outcomes ?? {}))
      expect(report.results.find((result) => result.id === id)?.outcome, id).toBe(outcome);
  });
});
