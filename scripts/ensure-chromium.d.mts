/** Where Chromium is looked for, in order, after `CHROMIUM_PATH`. */
export declare const CHROMIUM_CANDIDATES: readonly string[];
/** Launch flags: headless, and quiet on a closed network. */
export declare const CHROMIUM_ARGS: readonly string[];
/** The path of a Chromium binary (`CHROMIUM_PATH`, then the candidates), or `undefined`. */
export declare function findChromium(
  environment?: Record<string, string | undefined>,
): string | undefined;
