export { TaskProgress } from './task-progress.js';
export type { TaskProgressProps, TaskProgressState } from './task-progress.js';
export { smoothEstimate, DEFAULT_SMOOTHING_WEIGHT } from './smooth-estimate.js';
export { describeTimeLeft } from './describe-time-left.js';
export type { TimeLeftText } from './describe-time-left.js';
