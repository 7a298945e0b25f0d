/**
 * The components, each also importable alone from its folder. Their look is in `taskwire/styles.css`
 * (`src/styles.css`); none imports CSS itself, so an app that themes from scratch pays for none.
 */
export { TaskProgress } from './task-progress/task-progress.js';
export type { TaskProgressProps, TaskProgressState } from './task-progress/task-progress.js';
export { smoothEstimate, DEFAULT_SMOOTHING_WEIGHT } from './task-progress/smooth-estimate.js';
export { describeTimeLeft } from './task-progress/describe-time-left.js';
export type { TimeLeftText } from './task-progress/describe-time-left.js';

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
  TaskListViewItem,
  TaskListViewProps,
  TaskListViewState,
} from './task-list/task-list-view.js';

export { toDisplayStatus, describeStatus } from './task-status.js';
export { streamDisplayStatus } from './stream-display-status.js';
export type { TaskDisplayStatus, TaskStatusInput } from './task-status.js';
export type { Locale } from './format.js';
