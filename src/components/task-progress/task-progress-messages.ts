/**
 * What {@link TaskProgress} says besides the status words and the time left. The joining functions
 * exist because word order and punctuation differ between languages.
 */
export interface TaskProgressMessages {
  /** The bar's visible name when no `label` is given: "Task progress". */
  label: string;
  /** A percentage as spoken (`aria-valuetext`, the live region): "45 percent". */
  percent: (percent: number, figure: string) => string;
  /** A state still going on, beside the bar: "Reconnecting…". */
  ongoing: (status: string) => string;
  /** Two parts of the spoken value: "Running, about 20 seconds left", "Reconnecting, 26 percent". */
  joined: (first: string, second: string) => string;
  /** The live region's words for a failure with a reason: "Failed: out of memory". */
  failedBecause: (failed: string, reason: string) => string;
  /** The live region's text, prefixed with the bar's name: "Render video: 50 percent". */
  named: (name: string, announcement: string) => string;
}

/** English progress wording, the default. */
export const taskProgressMessages: TaskProgressMessages = {
  label: 'Task progress',
  percent: (_percent, figure) => `${figure} percent`,
  ongoing: (status) => `${status}…`,
  joined: (first, second) => `${first}, ${second}`,
  failedBecause: (failed, reason) => `${failed}: ${reason}`,
  named: (name, announcement) => `${name}: ${announcement}`,
};
