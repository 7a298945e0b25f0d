import { describe, expect, it } from 'vitest';
import {
  createTaskJournal,
  MAX_JOURNAL_BODY_LENGTH,
  MAX_JOURNAL_KEY_LENGTH,
  type TaskJournalEntry,
} from '../../src/state/task-journal.js';
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

describe('createTaskJournal, trusting nothing and losing nothing', () => {
  it('checks stored entries one by one: a bad one is dropped, the others kept', () => {
    const storage = mapStorage();
    const good = entry('t1', Date.now());
    storage.values.set(
      'taskwire:journal:s',
      JSON.stringify({ version: 1, entries: [good, { id: 5 }, { ...good, id: 't2', mode: 'x' }] }),
    );
    const journal = createTaskJournal({ storage });
    expect(journal.entries('s')).toEqual([good]);
  });

  it('reads an entry stored with the lastEventId of 0.2 drafts, without that field', () => {
    const storage = mapStorage();
    const good = entry('t1', Date.now());
    storage.values.set(
      'taskwire:journal:s',
      JSON.stringify({ version: 1, entries: [{ ...good, lastEventId: 'e7' }] }),
    );
    const journal = createTaskJournal({ storage });
    expect(journal.entries('s')).toEqual([good]);
  });

  it('refuses a resumeKey too long to store when it is written, and keeps the entry beside it', () => {
    const storage = mapStorage();
    const journal = createTaskJournal({ storage });
    journal.record('s', entry('t1', Date.now(), { key: 'first' }));
    const long = 'k'.repeat(MAX_JOURNAL_KEY_LENGTH + 1);
    expect(() => journal.record('s', entry('t2', Date.now(), { key: long }))).toThrow(
      expect.objectContaining({ code: 'protocol', reason: 'JOURNAL_ENTRY_REFUSED' }),
    );
    expect(() => journal.record('s', entry('t2', Date.now(), { key: long }))).toThrow(/resumeKey/);
    // Read back as a reload would: the first task is still there.
    const reloaded = createTaskJournal({ storage });
    expect(reloaded.entries('s').map((kept) => kept.id)).toEqual(['t1']);
  });

  it('tries a storage that threw once again on the next write', () => {
    const storage = mapStorage();
    let failures = 1;
    const flaky = {
      ...storage,
      setItem: (key: string, value: string) => {
        if (failures-- > 0) throw new Error('QuotaExceededError');
        storage.setItem(key, value);
      },
    };
    const journal = createTaskJournal({ storage: flaky });
    journal.record('s', entry('t1', Date.now()));
    expect(journal.entries('s').map((kept) => kept.id)).toEqual(['t1']);
    journal.record('s', entry('t2', Date.now() + 1));
    // Both reach the storage itself: a reload finds them.
    const reloaded = createTaskJournal({ storage });
    expect(reloaded.entries('s').map((kept) => kept.id)).toEqual(['t2', 't1']);
  });

  it('removes entries past maxAgeMs from the storage itself', () => {
    const storage = mapStorage();
    let now = 10_000;
    const journal = createTaskJournal({ storage, maxAgeMs: 5_000, now: () => now });
    journal.record('s', entry('t1', 9_000));
    now = 20_000;
    const later = createTaskJournal({ storage, maxAgeMs: 5_000, now: () => now });
    later.prune('s');
    expect(storage.values.has('taskwire:journal:s')).toBe(false);
  });

  it('removes the entries past maxAgeMs of every scope from the storage, not only the one read', () => {
    const storage = mapStorage();
    let now = 10_000;
    const journal = createTaskJournal({ storage, maxAgeMs: 5_000, now: () => now });
    journal.record('user-a', entry('a1', 9_000));
    journal.record('user-b', entry('b1', 9_000));
    journal.begin('user-b', {
      key: 'translation',
      task: 'translate-text',
      mode: 'submit',
      startedAt: 9_500,
      idempotencyKey: 'key-1',
      body: { params: { text: 'what user b typed' } },
    });
    now = 13_000;
    journal.record('user-b', entry('b2', 13_000));
    storage.values.set('app:settings', '{"theme":"dark"}');
    now = 16_000;
    // A later page, whoever is signed in there.
    const later = createTaskJournal({ storage, maxAgeMs: 5_000, now: () => now });
    later.prune();
    expect(storage.values.has('taskwire:journal:user-a')).toBe(false);
    expect(storage.values.get('taskwire:journal:user-b')).not.toContain('what user b typed');
    expect(later.entries('user-b').map((kept) => kept.id)).toEqual(['b2']);
    expect(storage.values.get('app:settings')).toBe('{"theme":"dark"}');
  });

  it('leaves a stored value it cannot read (a later version’s) as it is when it prunes', () => {
    const storage = mapStorage();
    const later = JSON.stringify({ version: 2, tasks: [{ id: 't1' }] });
    storage.values.set('taskwire:journal:s', later);
    createTaskJournal({ storage }).prune();
    expect(storage.values.get('taskwire:journal:s')).toBe(later);
  });

  it('removes a scope from the storage on clear (sign-out), whatever its value, and no other', () => {
    const storage = mapStorage();
    let now = 10_000;
    const journal = createTaskJournal({ storage, maxAgeMs: 5_000, now: () => now });
    journal.record('user-a', entry('a1', 9_000));
    journal.begin('user-a', {
      key: 'translation',
      task: 'translate-text',
      mode: 'submit',
      startedAt: 9_000,
      idempotencyKey: 'key-1',
      body: { params: { text: 'what user a typed' } },
    });
    journal.record('user-b', entry('b1', 9_000));
    journal.clear('user-a');
    expect(storage.values.has('taskwire:journal:user-a')).toBe(false);
    expect(journal.entries('user-b').map((kept) => kept.id)).toEqual(['b1']);
    // Entries past their age, or a value the journal cannot read, leave with the scope too.
    journal.record('user-a', entry('a2', 9_000));
    now = 20_000;
    journal.clear('user-a');
    expect(storage.values.has('taskwire:journal:user-a')).toBe(false);
    storage.values.set('taskwire:journal:user-a', 'not json at all');
    journal.clear('user-a');
    expect(storage.values.has('taskwire:journal:user-a')).toBe(false);
  });

  it('treats a startedAt in the future as now, so the entry ages', () => {
    const storage = mapStorage();
    let now = 10_000;
    storage.values.set(
      'taskwire:journal:s',
      JSON.stringify({ version: 1, entries: [entry('t1', Number.MAX_SAFE_INTEGER)] }),
    );
    const journal = createTaskJournal({ storage, maxAgeMs: 5_000, now: () => now });
    expect(journal.entries('s')[0]?.startedAt).toBe(10_000);
    now = 16_000;
    expect(journal.entries('s')).toEqual([]);
    journal.record('s', entry('t2', 99_999_999));
    expect(journal.entries('s')[0]?.startedAt).toBe(16_000);
  });

  it('keeps a start with its idempotency key and body until the task’s entry replaces it', () => {
    const storage = mapStorage();
    const journal = createTaskJournal({ storage });
    journal.begin('s', {
      key: 'render',
      task: 'render-video',
      mode: 'submit',
      startedAt: Date.now(),
      idempotencyKey: 'key-1',
      body: { params: { frames: 3 } },
    });
    const reloaded = createTaskJournal({ storage });
    expect(reloaded.starts('s')).toEqual([
      expect.objectContaining({
        key: 'render',
        idempotencyKey: 'key-1',
        body: { params: { frames: 3 } },
      }),
    ]);
    reloaded.record('s', entry('t1', Date.now(), { key: 'render', mode: 'submit' }));
    expect(reloaded.starts('s')).toEqual([]);
    expect(storage.values.get('taskwire:journal:s')).not.toContain('frames');
    expect(reloaded.entries('s').map((kept) => kept.id)).toEqual(['t1']);
  });

  it('keeps a start whose body is too large to store without its body', () => {
    const storage = mapStorage();
    const journal = createTaskJournal({ storage });
    const text = 'x'.repeat(MAX_JOURNAL_BODY_LENGTH);
    journal.begin('s', {
      key: 'big',
      task: 'render-video',
      mode: 'submit',
      startedAt: Date.now(),
      idempotencyKey: 'key-1',
      body: { params: { text } },
    });
    expect(journal.starts('s')).toEqual([
      expect.not.objectContaining({ body: expect.anything() as unknown }),
    ]);
    expect(journal.starts('s')[0]).toMatchObject({ key: 'big', idempotencyKey: 'key-1' });
    expect(storage.writes.filter((value) => value.includes(text))).toEqual([]);
  });

  it('lets go of its listeners when closed', () => {
    const journal = createTaskJournal({ storage: 'memory' });
    let changes = 0;
    journal.subscribe(() => (changes += 1));
    journal.close();
    journal.record('s', entry('t1', Date.now()));
    expect(changes).toBe(0);
  });
});

describe('createTaskJournal with keepParams', () => {
  const params = { text: 'what the user typed', targetLanguage: 'en' };

  it('keeps each task’s params with its entry, across a reload, and drops them with the entry', () => {
    const storage = mapStorage();
    const journal = createTaskJournal({ storage, keepParams: true });
    journal.record('user-a', entry('t1', Date.now(), { key: 'translation', params }));
    const reloaded = createTaskJournal({ storage, keepParams: true });
    expect(reloaded.entries('user-a')).toEqual([expect.objectContaining({ id: 't1', params })]);
    // Never another scope's.
    expect(reloaded.entries('user-b')).toEqual([]);
    reloaded.remove('user-a', 't1');
    expect([...storage.values.values()].join()).not.toContain('what the user typed');
  });

  it('keeps no params without it, stored or read', () => {
    const storage = mapStorage();
    const journal = createTaskJournal({ storage });
    journal.record('user-a', entry('t1', Date.now(), { params }));
    expect(journal.entries('user-a')[0]).not.toHaveProperty('params');
    expect(storage.writes.join()).not.toContain('what the user typed');
    // Params a journal with keepParams stored leave the storage once one without it reads it.
    createTaskJournal({ storage, keepParams: true }).record(
      'user-a',
      entry('t2', Date.now(), { params }),
    );
    const without = createTaskJournal({ storage });
    expect(without.entries('user-a').map((kept) => kept.params)).toEqual([undefined, undefined]);
    without.prune();
    expect(storage.values.get('taskwire:journal:user-a')).not.toContain('what the user typed');
  });

  it('keeps the entry without params too large to store', () => {
    const journal = createTaskJournal({ storage: mapStorage(), keepParams: true });
    const large = { text: 'x'.repeat(MAX_JOURNAL_BODY_LENGTH) };
    journal.record('user-a', entry('t1', Date.now(), { params: large }));
    expect(journal.entries('user-a')).toEqual([expect.objectContaining({ id: 't1' })]);
    expect(journal.entries('user-a')[0]).not.toHaveProperty('params');
  });
});
