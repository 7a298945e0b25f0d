/**
 * The devtools panel against real activity of the reference service (in-process): the streamed,
 * polled and failed task's timelines, the filters and the keyboard walk. The tests are written once
 * here and run twice: in jsdom with Testing Library's user-event (test/devtools/devtools.test.tsx)
 * and in Chromium with real key presses (test/browser/devtools.test.tsx), each file adding the
 * tests that exist for its environment alone.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskClient, type TaskClient } from '../../src/client/index.js';
import { TaskwireDevtools } from '../../src/devtools/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTaskSchemas,
} from '../../src/reference/index.js';

/**
 * What both user-event's `userEvent.setup()` (jsdom) and Vitest's browser `userEvent` (Chromium)
 * do, as far as these tests use it.
 */
export interface DevtoolsUser {
  click(element: Element): Promise<void>;
  tab(): Promise<void>;
  keyboard(text: string): Promise<void>;
  selectOptions(element: HTMLElement, values: string): Promise<void>;
  type(element: Element, text: string): Promise<void>;
  clear(element: Element): Promise<void>;
}

const closers: Array<() => Promise<void>> = [];

/** A client of the demo tasks, on a fast reference service that is closed after the test. */
export function freshClient(): TaskClient<typeof demoTaskSchemas> {
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

/** Submits a task and polls it until it ends. */
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

/** Runs a streamed, a polled (quoted first) and a failed task, as the tests below watch them. */
export async function runThreeTasks(client: TaskClient<typeof demoTaskSchemas>) {
  const params = { text: 'Hello', targetLanguage: 'de' };
  await client.options('translate-text', params);
  const polled = await submitAndPoll(client, 'translate-text', params);
  const stream = client.stream('render-video', { frames: 3, frameMs: 1 });
  for await (const event of stream) void event;
  const failed = await submitAndPoll(client, 'failing-task', {});
  return { polled, streamed: stream.taskId as string, failed };
}

/**
 * Mounts the closed panel, runs the three tasks and opens the panel with its toggle. The tasks start
 * before the panel's chunk has loaded: the mount records meanwhile.
 */
async function openOnThreeTasks(user: DevtoolsUser) {
  const client = freshClient();
  render(<TaskwireDevtools client={client} placement="inline" />);
  const ids = await runThreeTasks(client);
  await user.click(await screen.findByRole('button', { name: /taskwire devtools/i }));
  return { ids, panel: screen.getByRole('region', { name: 'Taskwire devtools' }) };
}

/** The value shown beside a label of a task's details. */
function fact(details: HTMLElement, label: string): string | null | undefined {
  return within(details).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
}

/** The button of the task whose name (with kind, status and id) matches `name`. */
function taskButton(panel: HTMLElement, name: string): HTMLElement {
  const list = within(panel).getByRole('list', { name: 'Tasks' });
  return within(list).getByRole('button', { name: new RegExp(name) });
}

/** The buttons of the panel's task list, newest first. */
export function tasksOf(panel: HTMLElement): HTMLElement[] {
  return within(within(panel).getByRole('list', { name: 'Tasks' })).getAllByRole('button');
}

/**
 * Registers the panel's tests under the title `name`, each acting through a user from `newUser`;
 * `ownTests` adds, in the same block, the tests that exist for the calling file's environment alone.
 */
export function describeDevtools(
  name: string,
  newUser: () => DevtoolsUser,
  ownTests: () => void,
): void {
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  describe(name, () => {
    it('shows a streamed, a polled and a failed task with their timelines', async () => {
      const user = newUser();
      const { ids, panel } = await openOnThreeTasks(user);

      await waitFor(() =>
        expect(
          within(panel).getAllByRole('button', {
            name: /translate-text|render-video|failing-task/,
          }),
        ).toHaveLength(4),
      );
      const details = () => within(panel).getByRole('region', { name: /^Task / });

      await user.click(taskButton(panel, `render-video stream · completed · ${ids.streamed}`));
      expect(within(details()).getByText(ids.streamed)).toBeInTheDocument();
      expect(within(details()).getByText('Progress 100 %', { exact: false })).toBeInTheDocument();
      expect(within(details()).getByText(/Completed · charged 1\.5 credits/)).toBeInTheDocument();
      expect(fact(details(), 'Quoted')).toBe('—');
      expect(fact(details(), 'Charged')).toBe('1.5 credits');
      expect(fact(details(), 'Progress')).toBe('100 %');
      expect(
        within(details()).getByText(/POST \/workflows\/render-video\/stream → 200/),
      ).toBeInTheDocument();

      await user.click(taskButton(panel, `translate-text submit · completed · ${ids.polled}`));
      const polled = details();
      expect(
        within(polled).getByText(/POST \/workflows\/translate-text\/submit → 202 .* key /),
      ).toBeInTheDocument();
      expect(
        within(polled).getByText(`Accepted as ${ids.polled}`, { exact: false }),
      ).toBeInTheDocument();
      expect(
        within(polled).getAllByText(/GET \/workflows\/translate-text\/.*\/result → 200/).length,
      ).toBeGreaterThan(0);
      expect(within(polled).getByText(/Poll: COMPLETED .* charged 1 credit$/)).toBeInTheDocument();
      // Quoted by the Options call before it started; charged on completion.
      expect(fact(polled, 'Quoted')).toBe('1 credit');
      expect(fact(polled, 'Charged')).toBe('1 credit');

      await user.click(taskButton(panel, `failing-task submit · failed · ${ids.failed}`));
      expect(within(details()).getByText(/Poll: FAILED .*: DEMO_FAILURE/)).toBeInTheDocument();
      expect(fact(details(), 'Status')).toBe('failed');
      expect(fact(details(), 'Charged')).toBe('—');

      // The Options call is a task of its own, with its quote.
      await user.click(taskButton(panel, 'translate-text options · quoted'));
      expect(within(details()).getByText('Quote: 1 credit', { exact: false })).toBeInTheDocument();
    });

    it('counts tasks, not price quotes', async () => {
      const client = freshClient();
      render(<TaskwireDevtools client={client} placement="inline" />);
      const params = { text: 'Hallo', targetLanguage: 'en' };
      await client.options('translate-text', params);
      await client.options('translate-text', { ...params, text: 'Hallo Welt' });
      await submitAndPoll(client, 'translate-text', params);
      expect(
        await screen.findByRole('button', {
          name: 'Taskwire devtools (1 task, 2 price quotes)',
        }),
      ).toBeInTheDocument();
      await submitAndPoll(client, 'failing-task', {});
      expect(
        await screen.findByRole('button', {
          name: 'Taskwire devtools (2 tasks, 2 price quotes)',
        }),
      ).toBeInTheDocument();
    });

    it('shows an error answer in the timeline', async () => {
      const user = newUser();
      const client = freshClient();
      render(<TaskwireDevtools client={client} placement="inline" initialIsOpen />);
      await expect(client.getResult('echo', 'no-such-task')).rejects.toThrow();
      const panel = await screen.findByRole('region', { name: 'Taskwire devtools' });
      await user.click(
        await within(panel).findByRole('button', { name: /echo poll · error · no-such-task/ }),
      );
      expect(within(panel).getByText(/Error http 404 /)).toBeInTheDocument();
    });

    it('filters the list by task name, status and text', async () => {
      const user = newUser();
      const { ids, panel } = await openOnThreeTasks(user);
      const list = () => within(panel).getByRole('list', { name: 'Tasks' });
      await waitFor(() => expect(within(list()).getAllByRole('button')).toHaveLength(4));

      await user.selectOptions(within(panel).getByLabelText('Status'), 'failed');
      expect(within(list()).getAllByRole('button')).toHaveLength(1);
      expect(within(list()).getByRole('button')).toHaveTextContent(ids.failed);

      await user.selectOptions(within(panel).getByLabelText('Status'), '');
      await user.selectOptions(within(panel).getByLabelText('Task name'), 'translate-text');
      expect(within(list()).getAllByRole('button')).toHaveLength(2);

      await user.selectOptions(within(panel).getByLabelText('Task name'), '');
      await user.type(within(panel).getByLabelText('Text'), ids.streamed);
      expect(within(list()).getAllByRole('button')).toHaveLength(1);
      expect(within(list()).getByRole('button')).toHaveTextContent('render-video');

      await user.clear(within(panel).getByLabelText('Text'));
      await user.type(within(panel).getByLabelText('Text'), 'nothing like this');
      expect(within(panel).getByText('No task matches the filters.')).toBeInTheDocument();
    });

    it('opens with the keyboard, moves through the list with the arrow keys and closes on Escape', async () => {
      const user = newUser();
      const client = freshClient();
      render(<TaskwireDevtools client={client} placement="inline" />);
      await runThreeTasks(client);
      const toggle = await screen.findByRole('button', { name: /taskwire devtools/i });
      expect(toggle).toHaveAttribute('aria-expanded', 'false');

      await user.tab();
      expect(toggle).toHaveFocus();
      await user.keyboard('{Enter}');
      expect(toggle).toHaveAttribute('aria-expanded', 'true');
      const panel = screen.getByRole('region', { name: 'Taskwire devtools' });
      const buttons = () => tasksOf(panel);
      await waitFor(() => expect(buttons()).toHaveLength(4));

      // Filters, then the list: one tab stop for the whole list, on the selected task.
      buttons()[0]!.focus();
      expect(buttons()[0]).toHaveAttribute('aria-current', 'true');
      await user.keyboard('{ArrowDown}');
      expect(buttons()[1]).toHaveFocus();
      expect(buttons()[1]).toHaveAttribute('aria-current', 'true');
      expect(buttons()[0]).toHaveAttribute('tabindex', '-1');
      await user.keyboard('{End}');
      expect(buttons()[3]).toHaveFocus();
      await user.keyboard('{Home}');
      expect(buttons()[0]).toHaveFocus();

      await user.keyboard('{Escape}');
      expect(screen.queryByRole('region', { name: 'Taskwire devtools' })).not.toBeInTheDocument();
      expect(toggle).toHaveFocus();
      expect(toggle).toHaveAttribute('aria-expanded', 'false');
    });

    ownTests();
  });
}
