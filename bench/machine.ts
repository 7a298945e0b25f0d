/**
 * The machine a bench run measured on, read at run time: CPU model and cores, memory, Node, the
 * operating system, the date, the load average (how busy the machine was) and the commit.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** Where and when a bench run happened. */
export interface MachineInfo {
  /** The CPU model as the operating system names it. */
  cpu: string;
  /** Logical cores available to this process. */
  cores: number;
  /** Total memory in GiB. */
  memoryGiB: number;
  /** The Node version, `v20.19.0`. */
  node: string;
  /** The operating system: distribution (where known), kernel and architecture. */
  os: string;
  /** When the run started, ISO 8601 in UTC. */
  startedAt: string;
  /** The 1-minute load average when the run started and when it ended (`undefined` until then). */
  load: { start: number; end: number | undefined };
  /** The checked-out commit, short, with `+changes` when the work tree differs from it; `undefined` outside git. */
  commit: string | undefined;
}

/** The distribution's name from /etc/os-release (Linux), else `undefined`. */
function distribution(): string | undefined {
  try {
    const text = readFileSync('/etc/os-release', 'utf8');
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text)?.[1];
  } catch {
    return undefined;
  }
}

function gitCommit(): string | undefined {
  try {
    const run = (...args: string[]) =>
      execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = run('rev-parse', '--short', 'HEAD');
    return run('status', '--porcelain', '--untracked-files=no') === ''
      ? commit
      : `${commit}+changes`;
  } catch {
    return undefined;
  }
}

/** Reads the machine now (call it when the run starts). */
export function describeMachine(): MachineInfo {
  const kernel = `${os.type()} ${os.release()} ${os.arch()}`;
  const name = distribution();
  return {
    cpu: os.cpus()[0]?.model.trim().replace(/\s+/g, ' ') ?? 'unknown CPU',
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: name === undefined ? kernel : `${name}, ${kernel}`,
    startedAt: new Date().toISOString(),
    load: { start: os.loadavg()[0] ?? 0, end: undefined },
    commit: gitCommit(),
  };
}

/** Notes the load average at the end of the run. */
export function finishMachine(machine: MachineInfo): MachineInfo {
  return { ...machine, load: { ...machine.load, end: os.loadavg()[0] ?? 0 } };
}

/** One line naming the machine, for the summary's header and the README. */
export function machineLine(machine: MachineInfo): string {
  const date = `${machine.startedAt.slice(0, 10)} ${machine.startedAt.slice(11, 16)} UTC`;
  const load =
    machine.load.end === undefined
      ? `load ${machine.load.start.toFixed(1)} at start`
      : `load ${machine.load.start.toFixed(1)} at start, ${machine.load.end.toFixed(1)} at end`;
  return [
    machine.cpu,
    `${machine.cores} cores`,
    `${machine.memoryGiB} GiB`,
    `Node ${machine.node}`,
    machine.os,
    date,
    load,
    ...(machine.commit === undefined ? [] : [`commit ${machine.commit}`]),
  ].join(' · ');
}
