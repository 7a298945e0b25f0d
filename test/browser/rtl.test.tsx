// The components right to left in real Chromium, measured from bounding boxes, each beside its
// left-to-right counterpart so that a measure that cannot tell the two apart fails: bars fill from
// the right and sweep leftwards, figures sit at the tables' logical end, the task list's button at
// the left; and axe finds nothing.
import '../../src/styles.css';
import { render } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cdp } from 'vitest/browser';
import {
  TaskEventList,
  TaskListView,
  TaskProgress,
  UsageBreakdown,
} from '../../src/components/index.js';
import {
  arabicSample,
  componentStates,
  events,
  taskListItems,
  usage,
} from '../../stories/component-states.js';

type Direction = 'ltr' | 'rtl';

afterEach(async () => {
  await cdp().send('Emulation.setEmulatedMedia', {
    features: [{ name: 'prefers-reduced-motion', value: 'no-preference' }],
  });
  vi.restoreAllMocks();
});

function renderIn(dir: Direction, node: React.ReactNode): HTMLElement {
  const { container } = render(
    <div dir={dir} lang={dir === 'rtl' ? 'ar' : 'en'} style={{ width: 480 }}>
      {node}
    </div>,
  );
  return container;
}

function only<T extends Element>(root: ParentNode, selector: string): T {
  const element = root.querySelector<T>(selector);
  if (!element) throw new Error(`nothing matches ${selector}`);
  return element;
}

/** The box of the text inside `element` (not the element's own box, which fills its cell). */
function textBox(element: Element): DOMRect {
  const range = document.createRange();
  range.selectNodeContents(element);
  return range.getBoundingClientRect();
}

describe('TaskProgress right to left', () => {
  it.each<[Direction, 'left' | 'right']>([
    ['ltr', 'left'],
    ['rtl', 'right'],
  ])('under %s fills from the %s', (dir, side) => {
    const root = renderIn(dir, <TaskProgress status="running" percent={45} />);
    const track = only(root, '[role="progressbar"]').getBoundingClientRect();
    const fill = only(root, '.taskwire-progress__indicator').getBoundingClientRect();
    expect(fill.width / track.width).toBeCloseTo(0.45, 2);
    expect(fill[side]).toBeCloseTo(track[side], 1);
    const other = side === 'left' ? 'right' : 'left';
    expect(Math.abs(fill[other] - track[other])).toBeGreaterThan(track.width / 2);
  });

  it.each<[Direction, number]>([
    ['ltr', 1],
    ['rtl', -1],
  ])('under %s sweeps the indeterminate bar in the reading direction', (dir, sign) => {
    const root = renderIn(dir, <TaskProgress status="running" />);
    const fill = only(root, '.taskwire-progress__indicator');
    const [sweep] = fill.getAnimations();
    if (!sweep) throw new Error('no sweep running');
    sweep.pause();
    const centreAt = (time: number) => {
      sweep.currentTime = time;
      const box = fill.getBoundingClientRect();
      return box.left + box.width / 2;
    };
    const moved = centreAt(700) - centreAt(0);
    expect(Math.sign(moved)).toBe(sign);
    expect(Math.abs(moved)).toBeGreaterThan(50);
  });

  it('keeps the striped bar still under reduced motion, right to left too', async () => {
    await cdp().send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-reduced-motion', value: 'reduce' }],
    });
    const root = renderIn('rtl', <TaskProgress status="running" />);
    const fill = only(root, '.taskwire-progress__indicator');
    expect(fill.getAnimations()).toEqual([]);
    const track = only(root, '[role="progressbar"]').getBoundingClientRect();
    expect(fill.getBoundingClientRect().width).toBeCloseTo(track.width, 0);
  });
});

describe('tables and lists right to left', () => {
  it.each<[Direction, 'left' | 'right']>([
    ['ltr', 'right'],
    ['rtl', 'left'],
  ])('under %s put the usage figures at the %s of their cells', (dir, side) => {
    const root = renderIn(dir, <UsageBreakdown usage={{ ...usage, credits: 12 }} />);
    const [firstRow] = root.querySelectorAll('tbody tr');
    if (!firstRow) throw new Error('no rows');
    const name = only(firstRow, 'th');
    const figure = firstRow.querySelectorAll('td')[0]!;
    // Inside the cells' 0.5rem padding, at the logical end (figures) and start (names).
    expect(Math.abs(textBox(figure)[side] - figure.getBoundingClientRect()[side])).toBeCloseTo(
      8,
      0,
    );
    const start = side === 'left' ? 'right' : 'left';
    expect(Math.abs(textBox(name)[start] - name.getBoundingClientRect()[start])).toBeCloseTo(8, 0);
    // The warning's bar is at the inline start.
    const warning = getComputedStyle(only(root, '.taskwire-usage__warning'));
    expect(warning.getPropertyValue(`border-${start}-width`)).toBe('4px');
    expect(warning.getPropertyValue(`border-${side}-width`)).toBe('0px');
  });

  it('puts the event numbers and the dismiss button on the mirrored side', () => {
    const ltr = renderIn('ltr', <TaskEventList events={events} />);
    const rtl = renderIn('rtl', <TaskEventList events={events} />);
    const list = (root: HTMLElement) => getComputedStyle(only(root, 'ol'));
    expect(list(ltr).paddingLeft).toBe('28px');
    expect(list(rtl).paddingRight).toBe('28px');
    expect(list(rtl).paddingLeft).toBe('0px');

    const items = taskListItems(arabicSample.tasks);
    for (const dir of ['ltr', 'rtl'] as const) {
      const root = renderIn(dir, <TaskListView items={items} onDismiss={() => {}} />);
      const task = only(root, '.taskwire-task-list__task').getBoundingClientRect();
      const button = only(root, '.taskwire-task-list__dismiss').getBoundingClientRect();
      if (dir === 'rtl') expect(button.right).toBeLessThan(task.left);
      else expect(button.left).toBeGreaterThan(task.right);
    }
  });
});

describe('every component right to left', () => {
  it('passes every axe rule with Arabic text', async () => {
    // NotificationActions reports the unsafe links of its empty state, refused on purpose.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const root = renderIn(
      'rtl',
      Object.entries(componentStates).flatMap(([component, states]) =>
        states(arabicSample).map((cell) => (
          <div key={`${component}: ${cell.name}`}>{cell.node}</div>
        )),
      ),
    );
    const results = await axe.run(root, { resultTypes: ['violations'] });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });
});
