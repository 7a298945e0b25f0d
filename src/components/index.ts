/**
 * The components, each also importable alone from its folder. Their look is in `taskwire/styles.css`
 * (`src/styles.css`); none imports CSS itself, so an app that themes from scratch pays for none.
 * Their words are `TaskwireMessages` (English by default, `taskwire/locales/de` in German).
 */
export { TaskProgress } from './task-progress/task-progress.js';
export type { TaskProgressProps, TaskProgressState } from './task-progress/task-progress.js';
export type { TaskProgressMessages } from './task-progress/task-progress-messages.js';
export type { TimeLeftMessages } from './task-progress/time-left-messages.js';

export { CreditCostPreview } from './credit-cost-preview/credit-cost-preview.js';
export type {
  CreditCostPreviewProps,
  CreditCostPreviewRenderProps,
  CreditCostPreviewState,
  CreditCostPreviewStatus,
} from './credit-cost-preview/credit-cost-preview.js';
export { isWithinBudget } from './credit-cost-preview/is-within-budget.js';

export { UsageBreakdown } from './usage-breakdown/usage-breakdown.js';
export type {
  UsageBreakdownProps,
  UsageBreakdownState,
} from './usage-breakdown/usage-breakdown.js';

export { TaskStatusBadge } from './task-status-badge/task-status-badge.js';
export type {
  TaskStatusBadgeProps,
  TaskStatusBadgeState,
} from './task-status-badge/task-status-badge.js';

export { TaskEventList } from './task-event-list/task-event-list.js';
export type {
  TaskEventListItem,
  TaskEventListProps,
  TaskEventListState,
} from './task-event-list/task-event-list.js';

export { NotificationActions } from './notification-actions/notification-actions.js';
export type {
  NotificationAction,
  NotificationActionsProps,
  NotificationActionsState,
} from './notification-actions/notification-actions.js';

export { TaskListView } from './task-list/task-list-view.js';
export type {
  TaskListItemState,
  TaskListViewItem,
  TaskListViewProps,
  TaskListViewState,
} from './task-list/task-list-view.js';

export type { StatusMessages } from './task-status.js';
export { streamDisplayStatus } from './stream-display-status.js';
export type { TaskDisplayStatus, TaskStatusInput } from './task-status.js';
export type { Locale } from './format.js';

export { TaskwireMessagesProvider } from './messages/messages-provider.js';
export type { TaskwireMessagesProviderProps } from './messages/messages-provider.js';
export { englishMessages } from './messages/english-messages.js';
export type {
  TaskwireMessages,
  TaskwireMessageGroup,
  TaskwireMessagesOverride,
} from './messages/messages.js';
export type { CreditMessages } from './messages/credit-messages.js';
export type { ToolMessages } from './messages/tool-messages.js';
export {
  errorText,
  type ErrorCodeName,
  type ErrorMessages,
  type ErrorReasonName,
} from './messages/error-messages.js';
export type { CreditCostPreviewMessages } from './credit-cost-preview/credit-cost-preview-messages.js';
export type { UsageBreakdownMessages } from './usage-breakdown/usage-breakdown-messages.js';
export type { TaskEventListMessages } from './task-event-list/task-event-list-messages.js';
export type { NotificationActionsMessages } from './notification-actions/notification-actions-messages.js';
export type { TaskListMessages } from './task-list/task-list-messages.js';
