/**
 * Turns a client's recorded activity (docs/protocol.md, "The activity feed") into the tasks the
 * devtools list: one per task the client touched, with its timeline, its progress and the credits
 * quoted and charged. A call's activities belong to one task; the polls of a task join it by its id.
 */
import type { TaskwireActivity } from '../client/index.js';
import { FOLLOW_TASK } from '../protocol/resumable-streams.js';
import type { RecordedActivity } from './activity-recorder.js';

/** How a task came to the client: started by one of the four calls, or only watched (`poll`). */
export type DevtoolsTaskMode = 'submit' | 'stream' | 'execute' | 'options' | 'poll';

/** Where a task stands, as far as the client saw it. */
export type DevtoolsTaskStatus =
  'waiting' | 'accepted' | 'running' | 'completed' | 'failed' | 'quoted' | 'error' | 'aborted';

/** One line of a task's timeline. */
export interface TimelineEntry {
  /** When it was delivered, in milliseconds since the epoch. */
  at: number;
  /** Which kind of activity it was. */
  type: TaskwireActivity['type'];
  /** What happened, in a line. */
  text: string;
  /** Whether it went wrong (an error, a failed task, a 4xx or 5xx answer). */
  failed: boolean;
}

/** One task the client touched. */
export interface DevtoolsTask {
  /** A key that stays the same while the task gains an id and more calls. */
  key: string;
  /** The task name. */
  name: string;
  /** The task id, once known. */
  id: string | undefined;
  /** How the client came to it. */
  mode: DevtoolsTaskMode;
  /** Where it stands. */
  status: DevtoolsTaskStatus;
  /** The latest progress in percent, when one was seen. */
  percent: number | undefined;
  /**
   * The credits quoted: its own Options answer, or for a started task the latest Options answer of
   * the same task name before it started.
   */
  quotedCredits: number | undefined;
  /** The credits charged, from the usage of its final record, Execute's record or final event. */
  chargedCredits: number | undefined;
  /** How many requests, retries and errors it took. */
  counts: { requests: number; retries: number; errors: number };
  /** When its first and its latest activity came. */
  startedAt: number;
  updatedAt: number;
  /** Everything that happened to it, oldest first. */
  timeline: TimelineEntry[];
}

const TERMINAL: ReadonlySet<DevtoolsTaskStatus> = new Set(['completed', 'failed', 'quoted']);

const number = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

/** A credit amount as the panel writes it. */
export function formatCredits(credits: number | undefined): string {
  if (credits === undefined) return '—';
  return `${number.format(credits)} ${credits === 1 ? 'credit' : 'credits'}`;
}

function recordStatus(status: string): DevtoolsTaskStatus {
  switch (status) {
    case 'ACCEPTED':
      return 'accepted';
    case 'COMPLETED':
      return 'completed';
    case 'FAILED':
      return 'failed';
    default:
      return 'running';
  }
}

/** The failure's reason of a FAILED record or event, when it has one. */
function failureReason(result: unknown): string {
  const reason = (result as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? `: ${reason}` : '';
}

/** Applies one activity to its task: the timeline line, and what it says about the task. */
function apply(task: DevtoolsTask, { at, activity }: RecordedActivity): void {
  let text: string;
  let failed = false;
  switch (activity.type) {
    case 'request': {
      task.counts.requests += 1;
      const outcome = activity.status ?? activity.error ?? 'no answer';
      failed = activity.status === undefined || activity.status >= 400;
      text =
        `${activity.method} ${activity.path} → ${outcome} · ${Math.round(activity.durationMs)} ms` +
        (activity.attempt > 0 ? ' · sent again' : '') +
        (activity.idempotencyKey === undefined ? '' : ` · key ${activity.idempotencyKey}`);
      break;
    }
    case 'retry':
      task.counts.retries += 1;
      text = `Retry after ${activity.status}: onUnauthorized ran, the tokens were read again`;
      break;
    case 'answer':
      switch (activity.operation) {
        case 'submit':
          text = `Accepted as ${activity.answer.id}`;
          task.status = 'accepted';
          break;
        case 'result':
        case 'execute': {
          const record = activity.answer;
          const progress = 'progress' in record ? record.progress : undefined;
          if (progress !== undefined) task.percent = progress.percent;
          if (record.usage !== undefined) task.chargedCredits = record.usage.credits;
          task.status = recordStatus(record.status);
          failed = record.status === 'FAILED';
          text =
            `${activity.operation === 'result' ? 'Poll' : 'Executed'}: ${record.status}` +
            (progress === undefined ? '' : ` · ${number.format(progress.percent)} %`) +
            (record.status === 'FAILED' ? failureReason(record.result) : '') +
            (record.usage === undefined ? '' : ` · charged ${formatCredits(record.usage.credits)}`);
          break;
        }
        case 'options':
          task.quotedCredits = activity.answer.credits ?? 0;
          task.status = 'quoted';
          text = `Quote: ${formatCredits(task.quotedCredits)}`;
          break;
        default:
          return activity satisfies never;
      }
      break;
    case 'event': {
      const event = activity.event as {
        type: string;
        percent?: number;
        usage?: { credits: number };
        result?: unknown;
      };
      text = `Event ${event.type}`;
      if (event.type === 'task.progress' && typeof event.percent === 'number') {
        task.percent = event.percent;
        task.status = 'running';
        text = `Progress ${number.format(event.percent)} %`;
      } else if (event.type === 'task.completed' || event.type === 'task.failed') {
        const completed = event.type === 'task.completed';
        task.status = completed ? 'completed' : 'failed';
        failed = !completed;
        if (completed) task.percent = 100;
        if (event.usage !== undefined) task.chargedCredits = event.usage.credits;
        text =
          (completed ? 'Completed' : `Failed${failureReason(event.result)}`) +
          (event.usage === undefined ? '' : ` · charged ${formatCredits(event.usage.credits)}`);
      } else if (!TERMINAL.has(task.status)) {
        task.status = 'running';
      }
      break;
    }
    case 'error':
      task.counts.errors += 1;
      failed = true;
      text =
        `Error ${activity.code}` +
        (activity.status === undefined ? '' : ` ${activity.status}`) +
        (activity.reason === undefined ? '' : ` ${activity.reason}`) +
        `: ${activity.message}`;
      if (!TERMINAL.has(task.status))
        task.status = activity.code === 'aborted' ? 'aborted' : 'error';
      break;
    default:
      return activity satisfies never;
  }
  task.timeline.push({ at, type: activity.type, text, failed });
  task.updatedAt = at;
}

/**
 * How a task came to the client, from its first activity: a stream started with the short request
 * of resumable streams (a Submit to `…/stream`) is a stream.
 */
function modeOf(activity: TaskwireActivity): DevtoolsTaskMode {
  if (activity.operation === 'result') return 'poll';
  if (activity.type === 'request' && activity.path.endsWith('/stream')) return 'stream';
  return activity.operation;
}

/** The tasks of a client's recorded activity, the most recently started first (a stable order). */
export function taskTimelines(recorded: readonly RecordedActivity[]): DevtoolsTask[] {
  const tasks: DevtoolsTask[] = [];
  const byCall = new Map<number, DevtoolsTask>();
  const byId = new Map<string, DevtoolsTask>();
  const latestQuote = new Map<string, number>();
  for (const entry of recorded) {
    const { activity } = entry;
    // The page's one multiplexed read is no task of its own: its events come under their tasks.
    if (activity.task === FOLLOW_TASK && activity.type !== 'event') continue;
    // By id first, and a call's task only when it is the same task: the page's multiplexed read
    // is one call whose events belong to many tasks.
    const ofCall = byCall.get(activity.call);
    let task =
      (activity.taskId === undefined ? undefined : byId.get(activity.taskId)) ??
      (ofCall !== undefined &&
      ofCall.name === activity.task &&
      (ofCall.id === undefined || activity.taskId === undefined)
        ? ofCall
        : undefined);
    if (task === undefined) {
      task = {
        key: `call-${activity.call}`,
        name: activity.task,
        id: undefined,
        mode: modeOf(activity),
        status: 'waiting',
        percent: undefined,
        quotedCredits:
          activity.operation === 'options' ? undefined : latestQuote.get(activity.task),
        chargedCredits: undefined,
        counts: { requests: 0, retries: 0, errors: 0 },
        startedAt: entry.at,
        updatedAt: entry.at,
        timeline: [],
      };
      tasks.push(task);
    }
    byCall.set(activity.call, task);
    if (activity.taskId !== undefined && task.id === undefined) {
      task.id = activity.taskId;
      byId.set(activity.taskId, task);
    }
    apply(task, entry);
    if (activity.type === 'answer' && activity.operation === 'options') {
      latestQuote.set(activity.task, task.quotedCredits ?? 0);
    }
  }
  return tasks.reverse();
}
