/** How an amount of credits reads, shared by every component that shows one. */
export interface CreditMessages {
  /**
   * `count` credits, `figure` being `count` already formatted by `Intl.NumberFormat` in the locale
   * ("12 credits", "1 credit", "0.5 credits"). A function of the count, so each language chooses its
   * own plural form.
   */
  credits: (count: number, figure: string) => string;
}

/** English credit wording, the default. */
export const creditMessages: CreditMessages = {
  credits: (count, figure) => `${figure} ${count === 1 ? 'credit' : 'credits'}`,
};
