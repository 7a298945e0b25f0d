/** What {@link CreditCostPreview} says; amounts of credits come from `CreditMessages`. */
export interface CreditCostPreviewMessages {
  /** The heading when no `label` is given: "Cost". */
  label: string;
  /** While the quote loads: "Getting the price…". */
  loading: string;
  /** A quote of 0 credits: "Free". */
  free: string;
  /** An answer of `{}`, no monetization configured: "No price quoted". */
  unpriced: string;
  /** A monetized quote without credits: "Price not given". */
  noCredits: string;
  /** The quote failed: "Could not get the price". */
  error: string;
  /** The price exceeds the balance, given as formatted credits: "More than your balance of 5 credits.". */
  overBudget: (balance: string) => string;
  /** The term for the tool that prices the task: "Tool". */
  tool: string;
  /** The term for the usage amount: "Usage". */
  usage: string;
  /** A stale price, a newer one on its way: "Updating…". */
  updating: string;
  /** The retry button: "Try again". */
  retry: string;
}

/** English cost preview wording, the default. */
export const creditCostPreviewMessages: CreditCostPreviewMessages = {
  label: 'Cost',
  loading: 'Getting the price…',
  free: 'Free',
  unpriced: 'No price quoted',
  noCredits: 'Price not given',
  error: 'Could not get the price',
  overBudget: (balance) => `More than your balance of ${balance}.`,
  tool: 'Tool',
  usage: 'Usage',
  updating: 'Updating…',
  retry: 'Try again',
};
