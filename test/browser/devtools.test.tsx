// The devtools panel in real Chromium: the streamed, polled and failed task's timelines from real
// activity against the reference service (in this tab), axe with every rule in the light and the
// dark theme, and the keyboard walk with real key presses.
import '../../src/styles.css';
import { render, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { createTaskClient, type TaskClient } from '../../src/client/index.js';
import { TaskwireDevtools } from '../../src/devtools/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTaskSchemas,
} from '../../src/reference/index.js';

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  document.documentElement.removeAttribute('data-theme');
  for (const close of closers.splice(0)) await close();
});

async function axeViolations(container: Element): Promise<string[]> {
  const results = await axe.run(container, { resultTypes: ['violations'] });
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.failureSummary ?? ''} (${node.html})`),
  );
}

function freshClient(): TaskClient<typeof demoTaskSchemas> {
  const service = createReferenceService({ timeScale: 0.01 });
  closers.push(() => service.close());
  return createTaskClient({
    baseUrl: 'http://taskwire.test',
    fetch: (request) => service.fetch(request),
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    tasks: demoTaskSchemas,
  });
}

async function submitAndPoll(
  client: TaskClient<typeof demoTaskSchemas>,
  task: 'translate-text' | 'failing-task',
  params: Record<string, unknown>,
): Promise<string> {
  const { id } = await client.submit(task, params as never);
  for (;;) {
    const record = await client.getResult(task, id);
    if (record.status === 'COMPLETED' || record.status === 'FAILED') return id;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function runThreeTasks(client: TaskClient<typeof demoTaskSchemas>) {
  const params = { text: 'Hello', targetLanguage: 'de' };
  await client.options('translate-text', params);
  const polled = await submitAndPoll(client, 'translate-text', params);
  const stream = client.stream('render-video', { frames: 3, frameMs: 1 });
  for await (const event of stream) void event;
  const failed = await submitAndPoll(client, 'failing-task', {});
  return { polled, streamed: stream.taskId as string, failed };
}

function tasksOf(panel: HTMLElement): HTMLElement[] {
  return within(within(panel).getByRole('list', { name: 'Tasks' })).getAllByRole('button');
}

describe('TaskwireDevtools in Chromium', () => {
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
});
