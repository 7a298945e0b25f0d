export { NotificationActions } from './notification-actions.js';
export type {
  NotificationAction,
  NotificationActionsProps,
  NotificationActionsState,
} from './notification-actions.js';
