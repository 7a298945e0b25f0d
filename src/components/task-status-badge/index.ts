export { TaskStatusBadge } from './task-status-badge.js';
export type { TaskStatusBadgeProps, TaskStatusBadgeState } from './task-status-badge.js';
