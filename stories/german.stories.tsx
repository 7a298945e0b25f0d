import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { TaskwireMessagesProvider } from '../src/components/index.js';
import { de } from '../src/locales/de.js';
import { componentStates, germanSample, type ComponentName } from './component-states.js';
import { findEnglishWords } from './english-words.js';
import { quietExpectedWarnings } from './expected-warnings.js';
import { StateGrid } from './state-grid.js';

/**
 * Every state of every component in German (`taskwire/locales/de` through the provider, figures in
 * the `de` locale), each story checking that no word of the English messages is left.
 */
const meta = {
  title: 'Locales/German',
  // The refused links of NotificationActions' empty state are reported in development, on purpose.
  beforeEach: quietExpectedWarnings(/^Invalid prop `actions\[\d+\]\.\w+` .* `NotificationActions`/),
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

/** The demo tools the states name, which German shows by name (`tools`), never by id. */
const DEMO_TOOL_IDS = ['image-gen', 'upscale', 'safety-check', 'export'];

function germanStates(component: ComponentName, minWidth?: number): Story {
  return {
    render: () => (
      <TaskwireMessagesProvider messages={de} locale="de">
        <StateGrid lang="de" minWidth={minWidth} cells={componentStates[component](germanSample)} />
      </TaskwireMessagesProvider>
    ),
    play: async ({ canvas, canvasElement }) => {
      const cells = [...canvasElement.querySelectorAll('[data-state-cell]')];
      await expect(cells.length).toBeGreaterThan(2);
      for (const cell of cells) await expect(findEnglishWords(cell)).toEqual([]);
      for (const id of DEMO_TOOL_IDS) await expect(canvas.queryAllByText(id)).toEqual([]);
    },
  };
}

/** TaskProgress in every state, in German. */
export const TaskProgress = germanStates('TaskProgress');
/** CreditCostPreview in every state, in German. */
export const CreditCostPreview = germanStates('CreditCostPreview');
/** UsageBreakdown in every state, in German. */
export const UsageBreakdown = germanStates('UsageBreakdown', 320);
/** TaskStatusBadge in every state, in German. */
export const TaskStatusBadge = germanStates('TaskStatusBadge', 110);
/** TaskEventList in every state, in German. */
export const TaskEventList = germanStates('TaskEventList');
/** NotificationActions in every state, in German. */
export const NotificationActions = germanStates('NotificationActions');
/** TaskListView in every state, in German. */
export const TaskListView = germanStates('TaskListView', 320);
