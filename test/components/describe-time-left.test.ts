import { describe, expect, it } from 'vitest';
import { describeTimeLeft } from '../../src/components/task-progress/describe-time-left.js';

describe('describeTimeLeft', () => {
  it('says nothing for an unknown, zero, negative or non-finite estimate', () => {
    expect(describeTimeLeft(undefined, 'en')).toBeUndefined();
    expect(describeTimeLeft(null, 'en')).toBeUndefined();
    expect(describeTimeLeft(0, 'en')).toBeUndefined();
    expect(describeTimeLeft(-3, 'en')).toBeUndefined();
    expect(describeTimeLeft(Number.POSITIVE_INFINITY, 'en')).toBeUndefined();
  });

  it('says "a few seconds" under ten seconds', () => {
    expect(describeTimeLeft(4, 'en')).toEqual({
      short: 'a few seconds left',
      long: 'a few seconds left',
    });
  });

  it('rounds to five seconds under 45 seconds', () => {
    expect(describeTimeLeft(22, 'en')).toEqual({
      short: 'about 20 s left',
      long: 'about 20 seconds left',
    });
    expect(describeTimeLeft(10.4, 'en')?.short).toBe('about 10 s left');
    expect(describeTimeLeft(43, 'en')?.short).toBe('about 45 s left');
  });

  it('says "less than a minute" from 45 to 59 seconds', () => {
    expect(describeTimeLeft(45, 'en')?.short).toBe('less than a minute left');
    expect(describeTimeLeft(59, 'en')?.long).toBe('less than a minute left');
  });

  it('counts whole minutes under 90 minutes, singular for one', () => {
    expect(describeTimeLeft(170, 'en')).toEqual({
      short: 'about 3 min left',
      long: 'about 3 minutes left',
    });
    expect(describeTimeLeft(60, 'en')?.long).toBe('about 1 minute left');
  });

  it('counts hours to the half beyond 90 minutes, with the locale decimal mark', () => {
    expect(describeTimeLeft(5400, 'en')).toEqual({
      short: 'about 1.5 h left',
      long: 'about 1.5 hours left',
    });
    expect(describeTimeLeft(5400, 'de')?.short).toBe('about 1,5 h left');
    expect(describeTimeLeft(7200, 'en')?.long).toBe('about 2 hours left');
  });
});
