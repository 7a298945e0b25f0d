import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { TaskList, useSubmitTask } from '../../src/index.js';
import { liveService } from './live-service.js';
import { pressWithKeyboard, timeFor } from './live-story-tools.js';

/** Starts three demo tasks that end differently, and lists the journal with `<TaskList>`. */
function ThreeTasks() {
  const translate = useSubmitTask('translate-text', { resumeKey: 'translation' });
  const report = useSubmitTask('slow-report', { resumeKey: 'report' });
  const failing = useSubmitTask('failing-task', { resumeKey: 'failing' });
  const started = translate.isSuccess || report.isSuccess || failing.isSuccess;
  return (
    <>
      <div className="live-actions">
        <button
          type="button"
          className="taskwire-button"
          disabled={translate.isPending || report.isPending || failing.isPending || started}
          onClick={() => {
            // One after the other, so the list's order (newest first) is known.
            void (async () => {
              await translate.mutateAsync({ params: { text: 'Bonjour', targetLanguage: 'en' } });
              await failing.mutateAsync({ params: { reason: 'OUT_OF_FRAMES' } });
              await report.mutateAsync({ params: { seconds: 60 } });
            })();
          }}
        >
          Start three tasks
        </button>
      </div>
      <TaskList locale="en" />
    </>
  );
}

const meta = {
  title: 'Live/TaskList',
  component: ThreeTasks,
  ...liveService<unknown>(),
  parameters: { liveService: { journal: true } },
} satisfies Meta<typeof ThreeTasks>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Start translate-text (completes), failing-task (fails) and slow-report (runs on) with the
 * keyboard only; the no-props `<TaskList>` shows them from the provider's journal as their records
 * come in, and a dismissal takes the failed one off the list (not off the service).
 */
export const CompletedRunningFailed: Story = {
  name: 'Completed, running and failed tasks',
  parameters: {
    liveScreen: {
      summary: 'The tasks in the provider’s journal: one completes, one fails, one runs on.',
    },
  },
  play: async ({ canvas, userEvent }) => {
    await expect(canvas.getByText('No tasks yet.')).toBeVisible();
    await pressWithKeyboard(userEvent, canvas.getByRole('button', { name: 'Start three tasks' }));
    const list = await canvas.findByRole('list', { name: 'Tasks' }, timeFor(1000));
    await waitFor(
      () =>
        expect(
          within(list)
            .queryAllByRole('listitem')
            .map((item) => item.getAttribute('data-state')),
        ).toEqual(['running', 'failed', 'completed']),
      timeFor(3000),
    );
    await expect(within(list).getAllByRole('listitem')[2]).toHaveTextContent('100% done');

    const dismiss = canvas.getByRole('button', { name: /^Dismiss failing-task/ });
    await pressWithKeyboard(userEvent, dismiss);
    await expect(within(list).queryByText('failing-task')).toBeNull();
    await expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await expect(canvas.getByRole('button', { name: /^Dismiss translate-text/ })).toHaveFocus();
  },
};
