export { TaskEventList } from './task-event-list.js';
export type {
  TaskEventListItem,
  TaskEventListProps,
  TaskEventListState,
} from './task-event-list.js';
