export { UsageBreakdown } from './usage-breakdown.js';
export type { UsageBreakdownProps, UsageBreakdownState } from './usage-breakdown.js';
