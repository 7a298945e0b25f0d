import { describe, expect, it } from 'vitest';
import { createTaskJournal, type TaskJournalEntry } from '../../src/state/task-journal.js';
import { mapStorage } from '../support/map-storage.js';

const entry = (id: string, startedAt: number, extra: Partial<TaskJournalEntry> = {}) =>
  ({
    task: 'render-video',
    id,
    mode: 'stream',
    status: 'IN_PROGRESS',
    startedAt,
    ...extra,
  }) satisfies TaskJournalEntry;

describe('createTaskJournal', () => {
  it('keeps the newest maxEntries entries and drops those past maxAgeMs', () => {
    let now = 10_000;
    const journal = createTaskJournal({
      storage: 'memory',
      maxEntries: 3,
      maxAgeMs: 5_000,
      now: () => now,
    });
    for (let index = 1; index <= 5; index += 1)
      journal.record('s', entry(`t${index}`, 9_000 + index));
    expect(journal.entries('s').map((kept) => kept.id)).toEqual(['t5', 't4', 't3']);
    now = 14_004;
    expect(journal.entries('s').map((kept) => kept.id)).toEqual(['t5', 't4']);
  });

  it('keeps scopes apart: another scope’s entries are never read', () => {
    const storage = mapStorage();
    const journal = createTaskJournal({ storage });
    journal.record('user-a', entry('a1', Date.now()));
    journal.record('user-b', entry('b1', Date.now()));
    expect(journal.entries('user-a').map((kept) => kept.id)).toEqual(['a1']);
    expect(journal.entries('user-b').map((kept) => kept.id)).toEqual(['b1']);
    journal.clear('user-a');
    expect(journal.entries('user-b')).toHaveLength(1);
  });

  it('ignores a corrupt or foreign stored value and leaves other keys alone', () => {
    const storage = mapStorage();
    storage.values.set('taskwire:journal:s', '{"version":1,"entries":[{"id":5}]}');
    storage.values.set('app:settings', '{"theme":"dark"}');
    const journal = createTaskJournal({ storage });
    expect(journal.entries('s')).toEqual([]);
    storage.values.set('taskwire:journal:s', 'not json at all');
    expect(journal.entries('s')).toEqual([]);
    journal.record('s', entry('t1', Date.now()));
    expect(journal.entries('s').map((kept) => kept.id)).toEqual(['t1']);
    expect(storage.values.get('app:settings')).toBe('{"theme":"dark"}');
  });

  it('never throws when the storage does, and goes on in memory', () => {
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const journal = createTaskJournal({ storage: throwing });
    expect(journal.entries('s')).toEqual([]);
    expect(() => journal.record('s', entry('t1', Date.now()))).not.toThrow();
    expect(journal.entries('s').map((kept) => kept.id)).toEqual(['t1']);
  });

  it('names one task per key, and never brings an ended task back to life', () => {
    const journal = createTaskJournal({ storage: 'memory' });
    journal.record('s', entry('old', Date.now() - 1_000, { key: 'render' }));
    journal.record('s', entry('new', Date.now(), { key: 'render' }));
    expect(journal.entries('s').map((kept) => kept.id)).toEqual(['new']);
    journal.update('s', 'new', { status: 'COMPLETED' });
    journal.update('s', 'new', { status: 'IN_PROGRESS' });
    expect(journal.entries('s')[0]?.status).toBe('COMPLETED');
  });

  it('tells subscribers of changes and returns the same entries until one happens', () => {
    const journal = createTaskJournal({ storage: 'memory' });
    let changes = 0;
    const stop = journal.subscribe(() => (changes += 1));
    const before = journal.entries('s');
    expect(journal.entries('s')).toBe(before);
    journal.record('s', entry('t1', Date.now()));
    journal.remove('s', 't1');
    journal.remove('s', 't1');
    expect(changes).toBe(2);
    stop();
    journal.record('s', entry('t2', Date.now()));
    expect(changes).toBe(2);
  });
});
