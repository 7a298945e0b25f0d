import { describe, expect, it } from 'vitest';
import { streamDisplayStatus } from '../../src/components/stream-display-status.js';
import { describeStatus, toDisplayStatus } from '../../src/components/task-status.js';

describe('streamDisplayStatus', () => {
  it('shows a recovering stream as running while its reads answer, reconnecting while they fail', () => {
    expect(streamDisplayStatus({ status: 'recovering', error: undefined })).toBe('running');
    const failedRead = new Error('503');
    expect(streamDisplayStatus({ status: 'recovering', error: failedRead })).toBe('reconnecting');
    expect(describeStatus(streamDisplayStatus({ status: 'recovering', error: failedRead }))).toBe(
      'Reconnecting',
    );
  });

  it('shows a bare recovering status as reconnecting, since nothing says the reads answer', () => {
    expect(streamDisplayStatus('recovering')).toBe('reconnecting');
    expect(describeStatus(streamDisplayStatus('recovering'))).toBe('Reconnecting');
  });

  it('maps a stream object like its status outside recovering', () => {
    const statuses = [
      'idle',
      'connecting',
      'streaming',
      'completed',
      'failed',
      'error',
      'stopped',
    ] as const;
    for (const status of statuses) {
      expect(streamDisplayStatus({ status, error: undefined })).toBe(streamDisplayStatus(status));
    }
  });

  it('maps every other stream status as before', () => {
    const statuses = [
      'idle',
      'connecting',
      'streaming',
      'completed',
      'failed',
      'error',
      'stopped',
    ] as const;
    expect(statuses.map(streamDisplayStatus)).toEqual([
      'idle',
      'queued',
      'running',
      'completed',
      'failed',
      'failed',
      'idle',
    ]);
  });
});

describe('toDisplayStatus', () => {
  it('takes reconnecting as a display status, and no service status maps to it', () => {
    expect(toDisplayStatus('reconnecting')).toBe('reconnecting');
    expect(['ACCEPTED', 'IN_PROGRESS', 'COMPLETED', 'FAILED'].map(toDisplayStatus)).not.toContain(
      'reconnecting',
    );
  });
});
