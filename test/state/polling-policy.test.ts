import { describe, expect, it } from 'vitest';
import { TaskwireError } from '../../src/client/errors.js';
import { nextPollDelay, pollStopReason, type PollState } from '../../src/state/polling-policy.js';

const running = (overrides: Partial<PollState> = {}): PollState => ({
  status: 'IN_PROGRESS',
  estimatedSecondsLeft: 20,
  retryAfterMs: undefined,
  errorCount: 0,
  error: null,
  startedAt: 0,
  now: 1000,
  ...overrides,
});

describe('nextPollDelay', () => {
  it('stops at COMPLETED and FAILED', () => {
    expect(nextPollDelay(running({ status: 'COMPLETED' }))).toBe(false);
    expect(nextPollDelay(running({ status: 'FAILED' }))).toBe(false);
    expect(pollStopReason(running({ status: 'FAILED' }))).toBe('terminal');
  });

  it('polls at a quarter of the estimated time left, within the floor and the ceiling', () => {
    expect(nextPollDelay(running({ estimatedSecondsLeft: 20 }))).toBe(5000);
    expect(nextPollDelay(running({ estimatedSecondsLeft: 1 }))).toBe(1000);
    expect(nextPollDelay(running({ estimatedSecondsLeft: 3600 }))).toBe(10_000);
    expect(nextPollDelay(running({ status: 'ACCEPTED', estimatedSecondsLeft: undefined }))).toBe(
      1000,
    );
    expect(nextPollDelay(running({ estimatedSecondsLeft: 3600 }), { maxIntervalMs: 4000 })).toBe(
      4000,
    );
  });

  it('never polls faster than its floor, whatever the hint', () => {
    expect(
      nextPollDelay(running({ estimatedSecondsLeft: 0, retryAfterMs: 10 }), { minIntervalMs: 750 }),
    ).toBe(750);
  });

  it('waits at least as long as the service asks', () => {
    expect(nextPollDelay(running({ estimatedSecondsLeft: 4, retryAfterMs: 3000 }))).toBe(3000);
    expect(nextPollDelay(running({ estimatedSecondsLeft: 400, retryAfterMs: 30_000 }))).toBe(
      30_000,
    );
  });

  it('backs off exponentially with jitter after retryable errors', () => {
    const error = new TaskwireError('http', 'Service unavailable', { status: 503 });
    const low = () => 0;
    const high = () => 1;
    expect(nextPollDelay(running({ errorCount: 1, error }), { random: low })).toBe(1000);
    expect(nextPollDelay(running({ errorCount: 1, error }), { random: high })).toBe(2000);
    expect(nextPollDelay(running({ errorCount: 3, error }), { random: high })).toBe(8000);
    expect(nextPollDelay(running({ errorCount: 3, error }), { random: low })).toBe(4000);
    expect(nextPollDelay(running({ errorCount: 12, error }), { random: high })).toBe(30_000);
  });

  it('respects the Retry-After of a 429', () => {
    const error = new TaskwireError('http', 'Too many requests', {
      status: 429,
      retryAfterMs: 12_000,
    });
    expect(nextPollDelay(running({ errorCount: 1, error }), { random: () => 0 })).toBe(12_000);
  });

  it('stops on errors that will not heal', () => {
    const notFound = new TaskwireError('http', 'No such task', {
      status: 404,
      reason: 'RESULT_NOT_FOUND',
    });
    const protocol = new TaskwireError('protocol', 'status: invalid');
    expect(nextPollDelay(running({ errorCount: 1, error: notFound }))).toBe(false);
    expect(pollStopReason(running({ errorCount: 1, error: protocol }))).toBe('fatal-error');
  });

  it('stops at the deadline', () => {
    expect(nextPollDelay(running({ startedAt: 0, now: 59_999 }), { deadlineMs: 60_000 })).toBe(
      5000,
    );
    expect(nextPollDelay(running({ startedAt: 0, now: 60_000 }), { deadlineMs: 60_000 })).toBe(
      false,
    );
    expect(pollStopReason(running({ startedAt: 0, now: 60_000 }), { deadlineMs: 60_000 })).toBe(
      'deadline',
    );
  });
});

describe('nextPollDelay bounds', () => {
  const base = {
    status: 'IN_PROGRESS' as const,
    estimatedSecondsLeft: 8,
    errorCount: 0,
    error: undefined,
    startedAt: 0,
    now: 0,
  };

  it('holds a Retry-After hint to five minutes and never hands a timer more than it takes', () => {
    expect(nextPollDelay({ ...base, retryAfterMs: 3e9 })).toBe(300_000);
    expect(nextPollDelay({ ...base, retryAfterMs: Infinity })).toBe(300_000);
    // The floor holds, but even a floor past a timer's range is cut to what it takes.
    expect(nextPollDelay({ ...base, retryAfterMs: undefined }, { minIntervalMs: 2 ** 40 })).toBe(
      2 ** 31 - 1,
    );
  });

  it('holds the Retry-After of an error to five minutes', () => {
    const error = new TaskwireError('http', 'The service answered 503.', {
      status: 503,
      retryAfterMs: 3e9,
    });
    expect(nextPollDelay({ ...base, errorCount: 1, error, retryAfterMs: undefined })).toBe(300_000);
  });
});
