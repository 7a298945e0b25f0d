import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SMOOTHING_WEIGHT,
  smoothEstimate,
} from '../../src/components/task-progress/smooth-estimate.js';

describe('smoothEstimate', () => {
  it('takes the first observation as it is', () => {
    expect(smoothEstimate(undefined, 42)).toBe(42);
  });

  it('weighs a new observation by the default weight of 0.3', () => {
    expect(DEFAULT_SMOOTHING_WEIGHT).toBe(0.3);
    expect(smoothEstimate(20, 40)).toBeCloseTo(0.3 * 40 + 0.7 * 20);
  });

  it('follows the observation exactly with a weight of 1', () => {
    expect(smoothEstimate(20, 40, 1)).toBe(40);
  });

  it('falls back to the default weight for a weight outside (0, 1]', () => {
    expect(smoothEstimate(20, 40, 0)).toBeCloseTo(26);
    expect(smoothEstimate(20, 40, 1.5)).toBeCloseTo(26);
    expect(smoothEstimate(20, 40, Number.NaN)).toBeCloseTo(26);
  });

  it('starts afresh from a previous value that is not finite', () => {
    expect(smoothEstimate(Number.NaN, 12)).toBe(12);
  });

  it('damps a jumpy series and still converges on a settled value', () => {
    const observations = [20, 35, 18, 33, 19, 34];
    let smoothed: number | undefined;
    const shown: number[] = [];
    for (const observed of observations) {
      smoothed = smoothEstimate(smoothed, observed);
      shown.push(smoothed);
    }
    const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
    expect(spread(shown)).toBeLessThan(spread(observations) / 2);
    for (let step = 0; step < 40; step += 1) smoothed = smoothEstimate(smoothed, 10);
    expect(smoothed).toBeCloseTo(10, 3);
  });
});
