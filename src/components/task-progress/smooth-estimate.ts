/**
 * Exponential smoothing of a task's "seconds left" estimate, framework-free so it can be tested
 * alone. Services estimate from their own recent speed, so the raw figure jumps (20 s, 35 s, 18 s);
 * shown as is, the text would flicker between "about 20 s" and "less than a minute".
 */

/** Weight of a new observation in {@link smoothEstimate}. Defaults to `0.3`. */
export const DEFAULT_SMOOTHING_WEIGHT = 0.3;

/**
 * The next smoothed estimate: `weight × observed + (1 − weight) × previous`, or `observed` itself
 * when there is no previous estimate. A weight of `1` turns smoothing off; a weight outside
 * `(0, 1]` or a non-finite one is replaced by {@link DEFAULT_SMOOTHING_WEIGHT}.
 *
 * Smoothing lags behind a steadily falling estimate by about `(1 − weight) / weight` updates' worth
 * of change; with updates a second or less apart, as services send them, that is under a few seconds.
 */
export function smoothEstimate(
  previous: number | undefined,
  observed: number,
  weight: number = DEFAULT_SMOOTHING_WEIGHT,
): number {
  const usedWeight =
    Number.isFinite(weight) && weight > 0 && weight <= 1 ? weight : DEFAULT_SMOOTHING_WEIGHT;
  if (previous === undefined || !Number.isFinite(previous)) return observed;
  return usedWeight * observed + (1 - usedWeight) * previous;
}
