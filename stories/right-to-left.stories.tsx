import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { arabicSample, componentStates, type ComponentName } from './component-states.js';
import { quietExpectedWarnings } from './expected-warnings.js';
import { StateGrid } from './state-grid.js';

/**
 * Every state of every component in a right-to-left page (`dir="rtl"`, Arabic text of the app's
 * own): bars fill from the right, tables put figures at the left, lists and buttons follow the
 * writing direction. The components' words stay English here (no Arabic messages ship); what is
 * shown is the layout. test/browser/rtl.test.tsx measures the same in Chromium.
 */
const meta = {
  title: 'Locales/Right to left',
  beforeEach: quietExpectedWarnings(/^Invalid prop `actions\[\d+\]\.\w+` .* `NotificationActions`/),
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

function rightToLeftStates(component: ComponentName, minWidth?: number): Story {
  return {
    render: () => (
      <StateGrid
        dir="rtl"
        lang="ar"
        minWidth={minWidth}
        cells={componentStates[component](arabicSample)}
      />
    ),
    play: async ({ canvasElement }) => {
      const cells = [...canvasElement.querySelectorAll('[data-state-cell]')];
      await expect(cells.length).toBeGreaterThan(2);
      for (const cell of cells) {
        await expect(getComputedStyle(cell.firstElementChild ?? cell).direction).toBe('rtl');
      }
    },
  };
}

/** TaskProgress right to left: each fill starts at the track's right edge. */
export const TaskProgress: Story = {
  ...rightToLeftStates('TaskProgress'),
  play: async ({ canvasElement }) => {
    const tracks = [...canvasElement.querySelectorAll('[role="progressbar"]')];
    await expect(tracks.length).toBe(18);
    for (const track of tracks) {
      const fill = track.querySelector('.taskwire-progress__indicator');
      if (!fill || track.getAttribute('data-state') === 'indeterminate') continue;
      const trackBox = track.getBoundingClientRect();
      const fillBox = fill.getBoundingClientRect();
      await expect(Math.abs(fillBox.right - trackBox.right)).toBeLessThan(0.5);
    }
  },
};
/** CreditCostPreview right to left. */
export const CreditCostPreview = rightToLeftStates('CreditCostPreview');
/** UsageBreakdown right to left: tool names at the right, figures at the left. */
export const UsageBreakdown = rightToLeftStates('UsageBreakdown', 320);
/** TaskStatusBadge right to left: the dot before the word, at the right. */
export const TaskStatusBadge = rightToLeftStates('TaskStatusBadge', 110);
/** TaskEventList right to left: the numbers at the right. */
export const TaskEventList = rightToLeftStates('TaskEventList');
/** NotificationActions right to left. */
export const NotificationActions = rightToLeftStates('NotificationActions');
/** TaskListView right to left: the dismiss button at the left. */
export const TaskListView = rightToLeftStates('TaskListView', 320);
