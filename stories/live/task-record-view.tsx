import type { ReactNode } from 'react';
import {
  TaskEventList,
  TaskProgress,
  TaskStatusBadge,
  UsageBreakdown,
  type OptionsResult,
  type TaskRecord,
} from '../../src/index.js';
import { field } from './live-story-tools.js';

/** How many of a record's custom events are listed. */
const LATEST_EVENTS = 6;

/** A JSON value as text, for results whose shape the story does not know. */
export function JsonText({ value }: { value: unknown }) {
  return (
    <pre style={{ margin: 0, whiteSpace: 'pre-wrap', fontSize: 13 }}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/**
 * Everything a task page shows of one TaskRecord (as `useTaskResult` polls it): status badge,
 * progress, result or failure, usage and custom events.
 */
export function TaskRecordView({
  label,
  record,
  quote,
  children,
}: {
  /** The progress bar's name. */
  label: string;
  /** The record, once there is one. */
  record: TaskRecord | undefined;
  /** The preflight quote to compare the charge with. */
  quote?: OptionsResult | undefined;
  /** Shown after the status line. */
  children?: ReactNode;
}) {
  const status = record?.status ?? 'idle';
  const failed = record?.status === 'FAILED';
  const reason = failed ? field(record.result, 'reason') : undefined;
  const message = failed ? field(record.result, 'message') : undefined;
  return (
    <>
      <p style={{ margin: 0 }}>
        Status: <TaskStatusBadge status={status} />
      </p>
      {children}
      <TaskProgress
        label={label}
        status={status}
        percent={record?.progress.percent ?? null}
        estimatedSecondsLeft={record?.progress.estimatedSecondsLeft ?? null}
        failureMessage={typeof message === 'string' ? message : undefined}
      />
      {typeof reason === 'string' && <p style={{ margin: 0 }}>Reason: {reason}</p>}
      {record?.status === 'COMPLETED' && (
        <section aria-label="Result">
          <JsonText value={record.result} />
        </section>
      )}
      {record?.status === 'COMPLETED' && (
        <UsageBreakdown usage={record.usage} {...(quote ? { quote } : {})} />
      )}
      {record && record.events.length > 0 && (
        // The latest few only: a longer list scrolls, and TaskEventList's scrolling list is not
        // keyboard-focusable yet (axe: scrollable-region-focusable), which fails the story.
        <TaskEventList
          label={`Latest events (${record.events.length} in all)`}
          events={record.events.slice(-LATEST_EVENTS)}
        />
      )}
    </>
  );
}
