import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../src/protocol/records.js';
import { lacksFinalUsage, mergeStreamRecord } from '../../src/state/merge-stream-record.js';

const usage = {
  credits: 2.5,
  details: [{ toolId: 'video-render', price: 0.5, amount: 5, credits: 2.5, failed: false }],
};
const done = { percent: 100, estimatedSecondsLeft: 0 };
/** Get Result's final record, with its usage. */
const fromGetResult: TaskRecord = {
  id: 'task-1',
  status: 'COMPLETED',
  result: { frames: 5 },
  progress: done,
  events: [],
  usage,
};
/** The record a stream whose `task.completed` carried no usage amounts to. */
const fromStream: TaskRecord = {
  id: 'task-1',
  status: 'COMPLETED',
  result: { frames: 5 },
  progress: done,
  events: [],
};

describe('mergeStreamRecord', () => {
  it('keeps Get Result’s usage when the stream’s final record has none', () => {
    expect(mergeStreamRecord(fromGetResult, fromStream)).toEqual(fromGetResult);
  });

  it('keeps the usage a running task’s record had under a live record without one', () => {
    const running: TaskRecord = { ...fromGetResult, status: 'IN_PROGRESS', result: null };
    const live: TaskRecord = { ...fromStream, status: 'IN_PROGRESS', result: null };
    expect(mergeStreamRecord(running, live).usage).toEqual(usage);
  });

  it('takes the stream’s own usage over the cached one', () => {
    const newer = { ...usage, credits: 3 };
    expect(mergeStreamRecord(fromGetResult, { ...fromStream, usage: newer }).usage).toBe(newer);
  });

  it('never takes a final record back with a live one', () => {
    const live: TaskRecord = { ...fromStream, status: 'IN_PROGRESS', result: null };
    expect(mergeStreamRecord(fromGetResult, live)).toBe(fromGetResult);
  });

  it('caches the stream’s record as it is when nothing was cached', () => {
    expect(mergeStreamRecord(undefined, fromStream)).toBe(fromStream);
  });
});

describe('lacksFinalUsage', () => {
  it('is true only for a completed record without usage', () => {
    expect(lacksFinalUsage(fromStream)).toBe(true);
    expect(lacksFinalUsage(fromGetResult)).toBe(false);
    expect(lacksFinalUsage({ ...fromStream, status: 'IN_PROGRESS', result: null })).toBe(false);
  });
});
