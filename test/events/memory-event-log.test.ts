import { afterEach, beforeEach, vi } from 'vitest';
import { memoryEventLog } from '../../src/events/memory-event-log.js';
import { eventLogSuite } from './event-log-suite.js';

// Retention is read from Date.now(): only the date is faked, so a case moves it on by itself.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

eventLogSuite('memoryEventLog', {
  create: async (limits) => memoryEventLog(limits),
  passRetention: async (retentionMs) => {
    vi.setSystemTime(Date.now() + retentionMs + 1);
  },
  passLease: async (leaseMs) => {
    vi.setSystemTime(Date.now() + leaseMs + 1);
  },
});
