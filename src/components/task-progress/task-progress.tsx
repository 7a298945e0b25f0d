import { forwardRef, useId, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { rootProps } from '../root-props.js';
import { warnInvalidProp } from '../dev-warning.js';
import { formatNumber, type Locale } from '../format.js';
import { errorMessages, errorText } from '../messages/error-messages.js';
import { useMessages } from '../messages/messages-context.js';
import type { TaskwireMessagesOverride } from '../messages/messages.js';
import { statusMessages, toDisplayStatus, type TaskStatusInput } from '../task-status.js';
import { describeTimeLeft, type TimeLeftText } from './describe-time-left.js';
import { DEFAULT_SMOOTHING_WEIGHT, smoothEstimate } from './smooth-estimate.js';
import { taskProgressMessages } from './task-progress-messages.js';
import { timeLeftMessages } from './time-left-messages.js';

/**
 * What a {@link TaskProgress} shows, mirrored in its `data-state`: `indeterminate` is a running task
 * that has not reported a percentage yet; `reconnecting` a task whose stream broke and whose record
 * cannot be read just now either, kept at its last percentage while the reads are tried again (a
 * recovering stream whose reads answer is `running`: see `streamDisplayStatus`).
 */
export type TaskProgressState =
  'idle' | 'queued' | 'running' | 'indeterminate' | 'reconnecting' | 'completed' | 'failed';

/**
 * Props of {@link TaskProgress}; any other prop (`aria-label`, `className`, `id`, …) and the `ref`
 * go to the element with `role="progressbar"`, as in Radix Progress.
 */
export interface TaskProgressProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /** The task's state, in the components' words or the service's (`'IN_PROGRESS'`). Defaults to `'idle'`. */
  status?: TaskStatusInput;
  /** Percent done, 0 to 100; `null` or absent while running means no figure yet. Defaults to `null`. */
  percent?: number | null;
  /** The service's estimate of the seconds left, smoothed before it is shown. Defaults to `null`. */
  estimatedSecondsLeft?: number | null;
  /**
   * The visible name of the bar, also its accessible name unless `aria-label` or `aria-labelledby`
   * is given. Defaults to the `taskProgress.label` message (`'Task progress'`).
   */
  label?: ReactNode;
  /** Why the task failed, the app's own words, shown as text in the `failed` state. Defaults to none. */
  failureMessage?: string;
  /**
   * Why the task failed or could not be followed (`stream.failure ?? stream.error`, a FAILED
   * record's `result`), shown in the `failed` state in the messages' words for its code and reason
   * (the `errors` group) when no `failureMessage` is given. Defaults to none.
   */
  error?: unknown;
  /** Locale of the figures. Defaults to the provider's `locale`, else the user's. */
  locale?: Locale;
  /**
   * Words to use instead of the provider's (or English), in part: the `status`, `timeLeft`,
   * `taskProgress` and `errors` groups. Defaults to none.
   */
  messages?:
    TaskwireMessagesOverride<'status' | 'timeLeft' | 'taskProgress' | 'errors'> | undefined;
  /** Screen readers hear the progress each time it passes a multiple of this percentage. Defaults to `25`. */
  announceEvery?: number;
  /** Weight of each new estimate in the smoothed time left, in (0, 1]; `1` turns smoothing off. Defaults to `0.3`. */
  smoothingWeight?: number;
}

const COMPONENT = 'TaskProgress';
/** How many points the fill must move at once to glide there rather than be drawn at once. */
const GLIDE_FROM_POINTS = 10;
const DEFAULT_ANNOUNCE_EVERY = 25;

/** The English groups the bar reads; nothing else of the messages is in its bundle. */
const ENGLISH = {
  status: statusMessages,
  timeLeft: timeLeftMessages,
  taskProgress: taskProgressMessages,
  errors: errorMessages,
};

type ProgressMessages = typeof ENGLISH;

function checkPercent(percent: number | null | undefined): number | null {
  if (percent == null) return null;
  if (typeof percent === 'number' && Number.isFinite(percent) && percent >= 0 && percent <= 100) {
    return percent;
  }
  warnInvalidProp(COMPONENT, 'percent', percent, 'no percentage (indeterminate)');
  return null;
}

function checkSecondsLeft(seconds: number | null | undefined): number | null {
  if (seconds == null) return null;
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) return seconds;
  warnInvalidProp(COMPONENT, 'estimatedSecondsLeft', seconds, 'no time left');
  return null;
}

function checkAnnounceEvery(step: number | undefined): number {
  if (step === undefined) return DEFAULT_ANNOUNCE_EVERY;
  if (Number.isFinite(step) && step > 0 && step <= 100) return step;
  warnInvalidProp(COMPONENT, 'announceEvery', step, `${DEFAULT_ANNOUNCE_EVERY}`);
  return DEFAULT_ANNOUNCE_EVERY;
}

function checkSmoothingWeight(weight: number | undefined): number {
  if (weight === undefined) return DEFAULT_SMOOTHING_WEIGHT;
  if (Number.isFinite(weight) && weight > 0 && weight <= 1) return weight;
  warnInvalidProp(COMPONENT, 'smoothingWeight', weight, `${DEFAULT_SMOOTHING_WEIGHT}`);
  return DEFAULT_SMOOTHING_WEIGHT;
}

/** What the bar, its text and its live region say in each state. */
interface ProgressDescription {
  /** The bar's fill and `aria-valuenow`; `null` when there is no figure. */
  shownPercent: number | null;
  /** The `aria-valuetext`. */
  valueText: string;
  /** The figure or word beside the label. */
  visibleValue: string;
  /** The live region's text (spoken when it changes). */
  announcement: string;
}

function describeProgress(
  state: TaskProgressState,
  percent: number | null,
  timeLeft: TimeLeftText | undefined,
  failureMessage: string | undefined,
  announceEvery: number,
  locale: Locale,
  { status: words, taskProgress: text }: ProgressMessages,
): ProgressDescription {
  const spoken = (value: number) =>
    text.percent(value, formatNumber(value, locale, { maximumFractionDigits: 0 }));
  const withTimeLeft = (said: string) => (timeLeft ? text.joined(said, timeLeft.long) : said);
  switch (state) {
    case 'idle':
      return {
        shownPercent: 0,
        valueText: words.idle,
        visibleValue: words.idle,
        announcement: '',
      };
    case 'queued':
      return {
        shownPercent: 0,
        valueText: words.queued,
        visibleValue: words.queued,
        announcement: words.queued,
      };
    case 'indeterminate':
      return {
        shownPercent: null,
        valueText: withTimeLeft(words.running),
        visibleValue: words.running,
        announcement: words.running,
      };
    case 'running': {
      const value = percent ?? 0;
      // The live text changes only when the percentage crosses a step, so a screen reader (which
      // speaks a polite region when its text changes) hears every step and nothing in between.
      const step = Math.floor(value / announceEvery) * announceEvery;
      return {
        shownPercent: value,
        valueText: withTimeLeft(spoken(value)),
        visibleValue: formatNumber(value / 100, locale, {
          style: 'percent',
          maximumFractionDigits: 0,
        }),
        announcement: step > 0 ? spoken(step) : words.running,
      };
    }
    case 'reconnecting': {
      // The last percentage stays (it is the last thing known), but no time left: nothing is known
      // to be running. The live text does not follow the percentage, so it is heard once.
      const word = words.reconnecting;
      return {
        shownPercent: percent,
        valueText: percent === null ? word : text.joined(word, spoken(percent)),
        visibleValue: text.ongoing(word),
        announcement: word,
      };
    }
    case 'completed':
      return {
        shownPercent: 100,
        valueText: words.completed,
        visibleValue: words.completed,
        announcement: words.completed,
      };
    case 'failed': {
      const word = words.failed;
      return {
        shownPercent: percent,
        valueText: word,
        visibleValue: word,
        announcement: failureMessage ? text.failedBecause(word, failureMessage) : word,
      };
    }
    default:
      return state satisfies never;
  }
}

/**
 * A task's progress: a bar with its percentage and a humane time left, `role="progressbar"` with
 * `aria-valuetext` (the element that gets the `ref` and the caller's props), and a polite live
 * region that speaks only at steps of `announceEvery` percent and at the end, never on every event.
 */
export const TaskProgress = forwardRef<HTMLDivElement, TaskProgressProps>(function TaskProgress(
  {
    status: statusProp = 'idle',
    percent: percentProp = null,
    estimatedSecondsLeft: secondsLeftProp = null,
    label: labelProp,
    failureMessage: failureMessageProp,
    error,
    locale: localeProp,
    announceEvery: announceEveryProp,
    smoothingWeight: smoothingWeightProp,
    messages: messagesProp,
    ...rest
  },
  ref,
) {
  const { messages, locale } = useMessages(ENGLISH, messagesProp, localeProp);
  const label = labelProp ?? messages.taskProgress.label;
  const failureMessage =
    failureMessageProp ?? (error === undefined ? undefined : errorText(error, messages.errors));
  const labelId = useId();
  let status = toDisplayStatus(statusProp);
  if (status === undefined) {
    warnInvalidProp(COMPONENT, 'status', statusProp, "'idle'");
    status = 'idle';
  }
  const percent = checkPercent(percentProp);
  const secondsLeft = checkSecondsLeft(secondsLeftProp);
  const announceEvery = checkAnnounceEvery(announceEveryProp);
  const smoothingWeight = checkSmoothingWeight(smoothingWeightProp);

  let state: TaskProgressState;
  switch (status) {
    case 'idle':
    case 'queued':
    case 'reconnecting':
    case 'completed':
    case 'failed':
      state = status;
      break;
    case 'running':
      state = percent === null ? 'indeterminate' : 'running';
      break;
    default:
      state = status satisfies never;
  }
  const active = state === 'running' || state === 'indeterminate';

  // Smoothing carries over between renders ("storing information from previous renders", as the
  // React docs call it); it starts afresh whenever there is no estimate or the task is not running.
  const observed = active && secondsLeft !== null && secondsLeft > 0 ? secondsLeft : undefined;
  const [smoothing, setSmoothing] = useState({ observed, smoothed: observed });
  let smoothed = smoothing.smoothed;
  if (smoothing.observed !== observed) {
    smoothed =
      observed === undefined
        ? undefined
        : smoothEstimate(smoothing.smoothed, observed, smoothingWeight);
    setSmoothing({ observed, smoothed });
  }
  const timeLeft = active ? describeTimeLeft(smoothed, locale, messages.timeLeft) : undefined;

  const described = describeProgress(
    state,
    percent,
    timeLeft,
    failureMessage,
    announceEvery,
    locale,
    messages,
  );
  const { shownPercent, valueText, visibleValue } = described;
  // A jump (a poll's 30 → 80 %) glides to its figure; a stream's small steps, many a second, are
  // drawn as they come: bars in transition all the time cost a page of many streams a style and
  // layout pass every frame. Kept from the render that moved the fill, as the smoothing above is.
  const [fill, setFill] = useState({ percent: shownPercent, glides: false });
  let glides = fill.glides;
  if (fill.percent !== shownPercent) {
    glides =
      fill.percent !== null &&
      shownPercent !== null &&
      Math.abs(shownPercent - fill.percent) >= GLIDE_FROM_POINTS;
    setFill({ percent: shownPercent, glides });
  }
  // The caller's own name for the bar wins over the visible label, in the live region too.
  const callerNamed = rest['aria-label'] !== undefined || rest['aria-labelledby'] !== undefined;
  const name = rest['aria-label'] ?? (typeof label === 'string' ? label : undefined);
  let announcement = described.announcement;
  if (announcement !== '' && name) announcement = messages.taskProgress.named(name, announcement);

  return (
    <div className="taskwire-progress" data-state={state}>
      <div className="taskwire-progress__header">
        <span id={labelId} className="taskwire-progress__label">
          {label}
        </span>
        {/* The bar's aria-valuetext says the same; hidden so a screen reader says it once. */}
        <span className="taskwire-progress__value" aria-hidden="true">
          {visibleValue}
        </span>
      </div>
      <div
        {...rootProps(ref, 'taskwire-progress__track', state, rest)}
        role="progressbar"
        aria-labelledby={callerNamed ? rest['aria-labelledby'] : labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        // Rounded: service arithmetic gives figures such as 55.00000000000001.
        aria-valuenow={shownPercent === null ? undefined : Math.round(shownPercent * 10) / 10}
        aria-valuetext={valueText}
      >
        {/* An <svg> sized by its width attribute, not a style: a page whose Content-Security-Policy
            forbids inline styles ignores style attributes, and would show the server's bar empty.
            The stylesheet still wins over the attribute (the indeterminate sweep's 40 %). */}
        <svg
          className="taskwire-progress__indicator"
          width={`${shownPercent ?? 0}%`}
          data-glide={glides ? '' : undefined}
          aria-hidden="true"
          focusable="false"
        />
      </div>
      {state === 'failed' && failureMessage ? (
        <p className="taskwire-progress__detail">{failureMessage}</p>
      ) : (
        <p className="taskwire-progress__detail" aria-hidden="true">
          {timeLeft?.short ?? ''}
        </p>
      )}
      <div className="taskwire-visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
    </div>
  );
});
