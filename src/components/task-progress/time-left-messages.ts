/**
 * The wording of a time left (see describe-time-left.ts for the rounding): a short form for the
 * screen and a long form for screen readers. Each function gets the rounded count and that count
 * formatted by `Intl.NumberFormat` in the locale, so plural forms are the language's to choose.
 */
export interface TimeLeftMessages {
  /** Under 10 seconds, both forms: "a few seconds left". */
  fewSeconds: string;
  /** 10 to 45 seconds, in steps of 5, on screen: "about 20 s left". */
  secondsShort: (seconds: number, figure: string) => string;
  /** The same, spoken: "about 20 seconds left". */
  secondsLong: (seconds: number, figure: string) => string;
  /** 45 to 60 seconds, both forms: "less than a minute left". */
  underAMinute: string;
  /** Whole minutes on screen: "about 3 min left". */
  minutesShort: (minutes: number, figure: string) => string;
  /** The same, spoken: "about 3 minutes left", "about 1 minute left". */
  minutesLong: (minutes: number, figure: string) => string;
  /** Hours to the half on screen: "about 1.5 h left". */
  hoursShort: (hours: number, figure: string) => string;
  /** The same, spoken: "about 1.5 hours left", "about 1 hour left". */
  hoursLong: (hours: number, figure: string) => string;
}

/** English time-left wording, the default. */
export const timeLeftMessages: TimeLeftMessages = {
  fewSeconds: 'a few seconds left',
  secondsShort: (_seconds, figure) => `about ${figure} s left`,
  secondsLong: (_seconds, figure) => `about ${figure} seconds left`,
  underAMinute: 'less than a minute left',
  minutesShort: (_minutes, figure) => `about ${figure} min left`,
  minutesLong: (minutes, figure) => `about ${figure} ${minutes === 1 ? 'minute' : 'minutes'} left`,
  hoursShort: (_hours, figure) => `about ${figure} h left`,
  hoursLong: (hours, figure) => `about ${figure} ${hours === 1 ? 'hour' : 'hours'} left`,
};
