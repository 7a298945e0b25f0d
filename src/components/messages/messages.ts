/**
 * Every word the components show or say, in groups: the shared status words and
 * credit wording, and one group per component. Each group's English default lives beside the
 * component that uses it, so a component's bundle holds its own words and no other's.
 */
import type { CreditCostPreviewMessages } from '../credit-cost-preview/credit-cost-preview-messages.js';
import type { NotificationActionsMessages } from '../notification-actions/notification-actions-messages.js';
import type { TaskEventListMessages } from '../task-event-list/task-event-list-messages.js';
import type { TaskListMessages } from '../task-list/task-list-messages.js';
import type { TaskProgressMessages } from '../task-progress/task-progress-messages.js';
import type { TimeLeftMessages } from '../task-progress/time-left-messages.js';
import type { UsageBreakdownMessages } from '../usage-breakdown/usage-breakdown-messages.js';
import type { CreditMessages } from './credit-messages.js';
import type { ErrorMessages } from './error-messages.js';
import type { ToolMessages } from './tool-messages.js';
import type { StatusMessages } from '../task-status.js';

/**
 * A complete set of the components' messages: a locale such as `taskwire/locales/de` is one, so a
 * missing key fails to compile. Strings are shown as they are; functions receive typed values
 * (counts, and figures already formatted by `Intl` in the locale) and return the text.
 */
export interface TaskwireMessages {
  /** The status words ("Queued", "Running", …): TaskStatusBadge, TaskProgress, TaskListView. */
  status: StatusMessages;
  /** Amounts of credits: CreditCostPreview, UsageBreakdown, TaskListView. */
  credits: CreditMessages;
  /**
   * A display name per tool id (`{ 'video-render': 'Video rendering' }`): CreditCostPreview,
   * UsageBreakdown. A tool without one shows by its id. Optional, since the ids are the app's own:
   * English names none, German the demo tools.
   */
  tools?: ToolMessages;
  /** The time left under a progress bar: TaskProgress. */
  timeLeft: TimeLeftMessages;
  /** TaskProgress. */
  taskProgress: TaskProgressMessages;
  /** CreditCostPreview. */
  creditCostPreview: CreditCostPreviewMessages;
  /** UsageBreakdown. */
  usageBreakdown: UsageBreakdownMessages;
  /** TaskEventList. */
  taskEventList: TaskEventListMessages;
  /** NotificationActions. */
  notificationActions: NotificationActionsMessages;
  /** TaskListView and the connected TaskList. */
  taskList: TaskListMessages;
  /**
   * What went wrong, by the error's code and reason: CreditCostPreview's `error`, TaskProgress's
   * `error` (docs/protocol.md, "Error bodies").
   */
  errors: ErrorMessages;
}

/** The name of one group of {@link TaskwireMessages}. */
export type TaskwireMessageGroup = keyof TaskwireMessages;

/**
 * Messages that replace the defaults in part: any group, and in a group any message. What is left
 * out stays as it was (English, or what a provider above gave). `Group` narrows it to the groups a
 * component reads (its `messages` prop); a complete {@link TaskwireMessages} fits every one.
 */
export type TaskwireMessagesOverride<Group extends TaskwireMessageGroup = TaskwireMessageGroup> = {
  [Name in Group]?: Partial<TaskwireMessages[Name]> | undefined;
};
