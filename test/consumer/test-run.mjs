/* global process, console, performance, setTimeout, clearTimeout -- a Node module */
// What both consumer tests (run-consumer-test.mjs, and test/consumer-next/run-next-test.mjs) need
// around their checks: cleanup steps that run once, last-in first-out, whether the test passes,
// fails, is stopped by a signal or runs past its deadline; timings of each step; and an exit that
// says what was left open.
import { chromium } from 'playwright';
import { CHROMIUM_ARGS } from '../../scripts/ensure-chromium.mjs';
import { stopProcesses } from './run-process.mjs';

/** How long the process may take to exit once done; longer means something was left open. */
const EXIT_GRACE_MS = 5_000;

/**
 * Launches Chromium for a run. Playwright's own signal handlers stay off: the run closes the
 * browser itself on a signal, as a cleanup step, before it removes its folder.
 */
export function launchChromium(executablePath) {
  return chromium.launch({
    executablePath,
    args: [...CHROMIUM_ARGS],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** An error as the log shows it: its stack where it has one. */
export function describeError(error) {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Starts a test run called `name` (for its messages), stopped after `deadlineMs`: returns
 * `cleanupSteps` (push a step to undo what was just set up), `timed(label, work)` and `timings`
 * (one `[label, ms]` per step), and `run(main)`, which runs the test, cleans up and exits.
 */
export function startTestRun(name, deadlineMs) {
  const cleanupSteps = [];
  let cleanup;
  function cleanUp() {
    cleanup ??= (async () => {
      stopProcesses();
      for (const step of cleanupSteps.reverse()) {
        try {
          await step();
        } catch (error) {
          console.error('cleanup failed:', error);
        }
      }
    })();
    return cleanup;
  }

  function stopEarly(reason, exitCode) {
    console.error(`\n${name} stopped: ${reason}`);
    void cleanUp().finally(() => process.exit(exitCode));
  }
  for (const [signal, exitCode] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    process.once(signal, () => stopEarly(signal, exitCode));
  }
  const deadline = setTimeout(
    () => stopEarly(`still running after ${deadlineMs} ms`, 1),
    deadlineMs,
  );

  const timings = [];
  async function timed(label, work) {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings.push([label, performance.now() - started]);
    }
  }

  function run(main) {
    const started = performance.now();
    void main()
      .catch((error) => {
        console.error(describeError(error));
        console.error(`${name} FAILED`);
        process.exitCode = 1;
      })
      .finally(async () => {
        await timed('clean up', cleanUp);
        clearTimeout(deadline);
        console.log(
          `timings: ${timings.map(([label, ms]) => `${label} ${(ms / 1000).toFixed(1)} s`).join(', ')}; ` +
            `total ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
        // Everything is closed by now, so Node should exit at once; if it does not, say what holds it.
        setTimeout(() => {
          console.error(
            `Still open after the test: ${process.getActiveResourcesInfo().join(', ')}`,
          );
          process.exit(1);
        }, EXIT_GRACE_MS).unref();
      });
  }

  return { cleanupSteps, timed, timings, run };
}
