import { afterEach, describe, expect, it } from 'vitest';
import { createStreamStartJournal, streamEndStatus } from '../../src/state/stream-start-journal.js';
import { createTaskJournal, type TaskJournal } from '../../src/state/task-journal.js';

const journals: TaskJournal[] = [];
afterEach(() => {
  for (const journal of journals.splice(0)) journal.close();
});

function memoryJournal() {
  const journal = createTaskJournal({ storage: 'memory', sharePolling: false });
  journals.push(journal);
  return journal;
}

const streamJournal = (journal: TaskJournal, scope: string, task: string, key: string) =>
  createStreamStartJournal({ journal, scope, task, key });

describe('createStreamStartJournal', () => {
  it('writes the start ahead, then the task id under its key, as a stream in progress', () => {
    const journal = memoryJournal();
    const kept = streamJournal(journal, 'user-1', 'render-video', 'video');
    kept.begin({ prompt: 'a cat' });
    expect(journal.starts('user-1')).toEqual([
      expect.objectContaining({ key: 'video', task: 'render-video', mode: 'stream' }),
    ]);
    kept.accepted('task-1');
    expect(journal.entries('user-1')).toEqual([
      expect.objectContaining({
        key: 'video',
        task: 'render-video',
        id: 'task-1',
        mode: 'stream',
        status: 'IN_PROGRESS',
      }),
    ]);
    expect(journal.starts('user-1')).toEqual([]);
  });

  it('takes up only the task its key started, of its task, in its scope', () => {
    const journal = memoryJournal();
    streamJournal(journal, 'user-1', 'render-video', 'video').accepted('task-1');
    expect(streamJournal(journal, 'user-1', 'render-video', 'video').taskToResume()).toBe('task-1');
    expect(streamJournal(journal, 'user-1', 'echo', 'video').taskToResume()).toBeUndefined();
    expect(
      streamJournal(journal, 'user-1', 'render-video', 'other').taskToResume(),
    ).toBeUndefined();
    expect(
      streamJournal(journal, 'user-2', 'render-video', 'video').taskToResume(),
    ).toBeUndefined();
  });
});

describe('streamEndStatus', () => {
  it('names the journal status of a stream that ended, and none for one that did not', () => {
    expect(streamEndStatus('completed')).toBe('COMPLETED');
    expect(streamEndStatus('failed')).toBe('FAILED');
    for (const status of [
      'idle',
      'connecting',
      'streaming',
      'recovering',
      'error',
      'stopped',
    ] as const) {
      expect(streamEndStatus(status)).toBeUndefined();
    }
  });
});
