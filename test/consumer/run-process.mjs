/* global process, setTimeout, clearTimeout -- a Node module */
// Child processes of the consumer test, each with a time limit, and all of them ended by
// `stopProcesses()` when the test stops early (a failure, Ctrl-C, its own deadline).
import { spawn } from 'node:child_process';

const running = new Set();

/**
 * Runs `command` with `args` and resolves to its standard output once it exits with 0; rejects with
 * all its output otherwise, or when it runs past `timeoutMs` (then it is killed).
 */
export function runProcess(command, args, { cwd, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let output = '';
    let errorOutput = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (errorOutput += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      running.delete(child);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const shown = [command, ...args].join(' ');
      if (code === 0) resolve(output);
      else if (signal === 'SIGKILL')
        reject(new Error(`${shown} took longer than ${timeoutMs} ms.\n${errorOutput}${output}`));
      else reject(new Error(`${shown} exited with ${code ?? signal}.\n${errorOutput}${output}`));
    });
  });
}

/** Runs a Node script with this Node. */
export function runNode(script, args, options) {
  return runProcess(process.execPath, [script, ...args], options);
}

/** Kills every child process still running. */
export function stopProcesses() {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}
