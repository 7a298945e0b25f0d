import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState, useSyncExternalStore } from 'react';
import { expect, waitFor, within } from 'storybook/test';
import {
  isTerminalStatus,
  requestNotificationPermission,
  useCompletionNotice,
  useJournalEntry,
  useSubmitTask,
  useTaskResult,
} from '../../src/index.js';
import { LiveSection } from './live-screen.js';
import { liveService } from './live-service.js';
import { pressWithKeyboard, pretendPageIs, timeFor } from './live-story-tools.js';
import { TaskRecordView } from './task-record-view.js';

/** Params of render-video, picked in the controls: long enough to switch to another tab. */
interface RenderVideoArgs {
  /** Frames to render, 1–500. */
  frames: number;
  /** Nominal milliseconds per frame. */
  frameMs: number;
}

/** The journal key the render is started under, so the notice (and this screen) find it. */
const RESUME_KEY = 'render';

/**
 * The slowest poll while the page is hidden: 2 s instead of the default 10 s, so the notice comes
 * soon after the render ends (`polling.maxIntervalMs` of `useCompletionNotice`).
 */
const HIDDEN_POLLING = { maxIntervalMs: 2000 };

/** The title the story gives the page, as an app has its own. */
const PAGE_TITLE = 'Video studio';

/** What the page may do with a finished task, by the browser's notification permission. */
const PERMISSION_TEXT: Record<NotificationPermission | 'asking', string> = {
  asking: 'Asking the browser whether this page may show notifications…',
  default:
    'Notifications not allowed yet: a task that ends in the background is counted in the page title.',
  granted: 'Notifications allowed: a task that ends in the background shows a system notification.',
  denied: 'Notifications blocked: a task that ends in the background is counted in the page title.',
};

/** The browser's answer so far; `denied` where there is no Notification API. */
function currentPermission(): NotificationPermission {
  return typeof Notification === 'undefined' ? 'denied' : Notification.permission;
}

/** Calls `onChange` whenever the document's title changes (`document.title` writes its element). */
function subscribeToTitle(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.head, { subtree: true, childList: true, characterData: true });
  return () => observer.disconnect();
}

/**
 * Every title the page has had while this screen is shown, oldest first. A story runs in a frame
 * whose title no browser tab shows, so the screen lists it instead.
 */
function usePageTitles(): string[] {
  const current = useSyncExternalStore(subscribeToTitle, () => document.title);
  const [titles, setTitles] = useState([current]);
  // Added while rendering ("storing information from previous renders"), not in an effect.
  if (titles.at(-1) !== current) setTitles([...titles, current]);
  return titles;
}

/**
 * A render the user may walk away from: "Notify me" asks for the permission (a click, as browsers
 * require), `useCompletionNotice` tells of the end in the background, and the titles are listed.
 */
function RenderInTheBackground({ frames, frameMs }: RenderVideoArgs) {
  useCompletionNotice({ polling: HIDDEN_POLLING });
  const [permission, setPermission] = useState<NotificationPermission | 'asking'>(
    currentPermission,
  );
  const submit = useSubmitTask('render-video', { resumeKey: RESUME_KEY });
  const entry = useJournalEntry(RESUME_KEY);
  const result = useTaskResult('render-video', entry?.id);
  const titles = usePageTitles();
  const running = entry !== undefined && !isTerminalStatus(entry.status);
  return (
    <>
      <div className="live-actions">
        <button
          type="button"
          className="taskwire-button"
          onClick={() => {
            setPermission('asking');
            void requestNotificationPermission().then(setPermission);
          }}
        >
          Notify me when tasks end
        </button>
        <button
          type="button"
          className="taskwire-button"
          disabled={submit.isPending || running}
          onClick={() => submit.mutate({ params: { frames, frameMs } })}
        >
          Start render-video
        </button>
      </div>
      <p role="status" className="live-note">
        {PERMISSION_TEXT[permission]}
      </p>
      {submit.error && (
        <p role="alert" className="live-alert">
          {submit.error.message}
        </p>
      )}
      <TaskRecordView label="Render video" record={result.data} />
      <LiveSection heading="Page titles">
        <ol className="live-chips" aria-label="Page titles">
          {titles.map((title, index) => (
            <li key={index}>{title}</li>
          ))}
        </ol>
      </LiveSection>
    </>
  );
}

const meta = {
  title: 'Live/Completion notice',
  component: RenderInTheBackground,
  ...liveService<RenderVideoArgs>(),
  parameters: { liveService: { journal: true } },
  args: { frames: 30, frameMs: 1000 },
  argTypes: {
    frames: { control: { type: 'range', min: 1, max: 200, step: 1 } },
    frameMs: { control: { type: 'range', min: 10, max: 1000, step: 10 } },
  },
  // The page's own title, and the page visible again whatever the play function left.
  beforeEach: () => {
    const before = document.title;
    document.title = PAGE_TITLE;
    return () => {
      pretendPageIs('visible');
      document.title = before;
    };
  },
} satisfies Meta<typeof RenderInTheBackground>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Ask for notifications, start a render, and switch to another tab until it ends: the render's end
 * comes as a system notification if allowed, else as "(1) Video studio" in the page title until
 * you come back. With the keyboard only; headless Chromium never allows notifications, so the
 * play function checks the title (it hides the page the way a background tab is hidden).
 */
export const NoticeInTheBackground: Story = {
  name: 'Told when a task ends in the background',
  parameters: {
    liveScreen: {
      summary:
        'useCompletionNotice: start a render, switch tabs, and hear of its end by notification or in the title.',
    },
  },
  play: async ({ canvas, userEvent, args }) => {
    // The browser never grants it here, so what is checked is the title, the fallback.
    await expect(currentPermission()).not.toBe('granted');
    await pressWithKeyboard(
      userEvent,
      canvas.getByRole('button', { name: 'Notify me when tasks end' }),
    );
    // The page now waits for the browser's answer, or has it. When the browser answers is its own
    // affair (Vitest's Chromium says "default" after about 2 s, Playwright's never answers), so the
    // story goes on without it: the title fallback is what a page without the permission gets.
    await expect(canvas.getByText(/^(Asking the browser|Notifications blocked)/)).toBeVisible();

    await pressWithKeyboard(userEvent, canvas.getByRole('button', { name: 'Start render-video' }));
    const bar = canvas.getByRole('progressbar', { name: 'Render video' });
    await waitFor(
      () => expect(bar.closest('[data-state]')).toHaveAttribute('data-state', 'running'),
      timeFor(1000),
    );
    const titles = within(canvas.getByRole('list', { name: 'Page titles' }));
    const listedTitles = () => titles.getAllByRole('listitem').map((item) => item.textContent);
    await expect(listedTitles()).toEqual([PAGE_TITLE]);

    // The user goes to another tab while it renders; it ends there, and the title counts it.
    pretendPageIs('hidden');
    await waitFor(
      () => expect(document.title).toBe(`(1) ${PAGE_TITLE}`),
      timeFor(args.frames * args.frameMs + 3 * HIDDEN_POLLING.maxIntervalMs),
    );
    await expect(listedTitles()).toEqual([PAGE_TITLE, `(1) ${PAGE_TITLE}`]);
    await expect(canvas.getByText('Completed', { selector: '.taskwire-badge' })).toBeVisible();

    // Back on the tab: the title is the page's own again.
    pretendPageIs('visible');
    await expect(document.title).toBe(PAGE_TITLE);
    await waitFor(() =>
      expect(listedTitles()).toEqual([PAGE_TITLE, `(1) ${PAGE_TITLE}`, PAGE_TITLE]),
    );
  },
};
