/**
 * What {@link UsageBreakdown} says; amounts of credits (the `string` parameters here) come already
 * worded by `CreditMessages`.
 */
export interface UsageBreakdownMessages {
  /** The table's caption when none is given: "Credits used". */
  caption: string;
  /** After the caption when nothing was used: "No credits were used.". */
  empty: string;
  /** Column heading: "Tool". */
  tool: string;
  /** Column heading: "Price". */
  price: string;
  /** Column heading: "Amount". */
  amount: string;
  /** Column heading: "Credits". */
  credits: string;
  /** A failed row's credits cell: "Not charged (failed)". */
  notCharged: string;
  /** The footer row: "Total". */
  total: string;
  /** The warning's first words when the figures disagree: "These figures do not add up.". */
  mismatch: string;
  /** The total disagrees with the charged rows: "The service reported a total of 12 credits; …". */
  totalMismatch: (reported: string, rows: string) => string;
  /** A row's credits disagree with its price × amount: "upscale was charged 5 credits; …". */
  rowMismatch: (tool: string, charged: string, expected: string) => string;
  /** The charge agrees with the quote: "Charged as quoted: 8 credits.". */
  chargedAsQuoted: (charged: string) => string;
  /** The charge differs from the quote: "Quoted 10 credits, charged 8 credits.". */
  quotedAndCharged: (quoted: string, charged: string) => string;
}

/** English usage wording, the default. */
export const usageBreakdownMessages: UsageBreakdownMessages = {
  caption: 'Credits used',
  empty: 'No credits were used.',
  tool: 'Tool',
  price: 'Price',
  amount: 'Amount',
  credits: 'Credits',
  notCharged: 'Not charged (failed)',
  total: 'Total',
  mismatch: 'These figures do not add up.',
  totalMismatch: (reported, rows) =>
    `The service reported a total of ${reported}; the charged rows add up to ${rows}.`,
  rowMismatch: (tool, charged, expected) =>
    `${tool} was charged ${charged}; its price × amount is ${expected}.`,
  chargedAsQuoted: (charged) => `Charged as quoted: ${charged}.`,
  quotedAndCharged: (quoted, charged) => `Quoted ${quoted}, charged ${charged}.`,
};
