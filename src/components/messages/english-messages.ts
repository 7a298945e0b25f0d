import { creditCostPreviewMessages } from '../credit-cost-preview/credit-cost-preview-messages.js';
import { notificationActionsMessages } from '../notification-actions/notification-actions-messages.js';
import { taskEventListMessages } from '../task-event-list/task-event-list-messages.js';
import { taskListMessages } from '../task-list/task-list-messages.js';
import { taskProgressMessages } from '../task-progress/task-progress-messages.js';
import { timeLeftMessages } from '../task-progress/time-left-messages.js';
import { usageBreakdownMessages } from '../usage-breakdown/usage-breakdown-messages.js';
import { creditMessages } from './credit-messages.js';
import { errorMessages } from './error-messages.js';
import { toolMessages } from './tool-messages.js';
import type { TaskwireMessages } from './messages.js';
import { statusMessages } from '../task-status.js';

/**
 * The English messages, complete: the components' default, and a starting point for a new locale.
 * The components never import this table (each takes its own groups), so only an app that imports
 * it pays for all of it.
 */
export const englishMessages: TaskwireMessages = {
  status: statusMessages,
  credits: creditMessages,
  tools: toolMessages,
  timeLeft: timeLeftMessages,
  taskProgress: taskProgressMessages,
  creditCostPreview: creditCostPreviewMessages,
  usageBreakdown: usageBreakdownMessages,
  taskEventList: taskEventListMessages,
  notificationActions: notificationActionsMessages,
  taskList: taskListMessages,
  errors: errorMessages,
};
