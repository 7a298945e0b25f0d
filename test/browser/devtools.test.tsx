// The devtools panel in real Chromium, with real key presses (test/devtools/devtools-cases.tsx
// holds the tests both environments share); here alone: the panel's own stylesheet and axe with
// every rule in the light and the dark theme.
import '../../src/styles.css';
import { render, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { TaskwireDevtools } from '../../src/devtools/index.js';
import {
  describeDevtools,
  freshClient,
  runThreeTasks,
  tasksOf,
} from '../devtools/devtools-cases.js';

afterEach(() => {
  document.documentElement.removeAttribute('data-theme');
});

/** The axe violations in `container`, one line a failing node. */
async function axeViolations(container: Element): Promise<string[]> {
  const results = await axe.run(container, { resultTypes: ['violations'] });
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.failureSummary ?? ''} (${node.html})`),
  );
}

describeDevtools(
  'TaskwireDevtools in Chromium',
  () => userEvent.setup(),
  () => {
    it('shows the three timelines, passes axe in both themes and works from the keyboard', async () => {
      const client = freshClient();
      const { container } = render(<TaskwireDevtools client={client} placement="inline" />);
      const ids = await runThreeTasks(client);
      const toggle = await screen.findByRole('button', { name: /taskwire devtools/i });

      await userEvent.tab();
      expect(toggle).toHaveFocus();
      await userEvent.keyboard('{Enter}');
      const panel = screen.getByRole('region', { name: 'Taskwire devtools' });
      await waitFor(() => expect(tasksOf(panel)).toHaveLength(4));
      const details = () => within(panel).getByRole('region', { name: /^Task / });

      // Newest first: the failed task, the stream, the polled task, the quote.
      tasksOf(panel)[0]!.focus();
      expect(within(details()).getByText(/Poll: FAILED .*: DEMO_FAILURE/)).toBeVisible();
      await userEvent.keyboard('{ArrowDown}');
      expect(tasksOf(panel)[1]).toHaveFocus();
      expect(within(details()).getByText(ids.streamed)).toBeVisible();
      expect(within(details()).getByText(/Completed · charged 1\.5 credits/)).toBeVisible();
      await userEvent.keyboard('{ArrowDown}');
      expect(within(details()).getByText(ids.polled)).toBeVisible();
      expect(within(details()).getByText(/Poll: COMPLETED .* charged 1 credit$/)).toBeVisible();
      expect(ids.failed).toEqual(expect.any(String));

      // The panel's own stylesheet is loaded with its chunk: the list and details sit side by side.
      expect(
        getComputedStyle(within(panel).getByRole('list', { name: 'Tasks' }).parentElement!).display,
      ).toBe('grid');
      expect(await axeViolations(container)).toEqual([]);
      document.documentElement.setAttribute('data-theme', 'dark');
      expect(await axeViolations(container)).toEqual([]);

      await userEvent.keyboard('{Escape}');
      expect(screen.queryByRole('region', { name: 'Taskwire devtools' })).toBeNull();
      expect(toggle).toHaveFocus();
    });
  },
);
