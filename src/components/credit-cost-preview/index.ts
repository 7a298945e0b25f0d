export { CreditCostPreview } from './credit-cost-preview.js';
export type {
  CreditCostPreviewProps,
  CreditCostPreviewRenderProps,
  CreditCostPreviewState,
  CreditCostPreviewStatus,
} from './credit-cost-preview.js';
export { isWithinBudget } from './is-within-budget.js';
