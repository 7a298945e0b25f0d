import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskEventList } from '../../src/components/task-event-list/task-event-list.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('TaskEventList', () => {
  it('shows the empty text without events', async () => {
    const { container } = render(<TaskEventList />);
    expect(container.firstChild).toHaveAttribute('data-state', 'empty');
    expect(screen.getByText('No events yet.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations).toEqual([]);
  });

  it('lists events from Get Result by action name, in order, under its label', async () => {
    const { container } = render(
      <TaskEventList
        events={[
          { type: 'event.frame-rendered', id: 'a' },
          { type: 'event.thumbnail-ready', id: 'b' },
        ]}
      />,
    );
    expect(container.firstChild).toHaveAttribute('data-state', 'listed');
    const list = screen.getByRole('list', { name: 'Events' });
    expect(list.tagName).toBe('OL');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'frame-rendered',
      'thumbnail-ready',
    ]);
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations).toEqual([]);
  });

  it('shows the fields of streamed events as text, without the ids', () => {
    const { container } = render(
      <TaskEventList
        events={[
          {
            type: 'event.frame-rendered',
            eventId: 'x1',
            frame: 3,
            note: '<img src=x onerror=alert(1)>',
            meta: { size: [1, 2] },
          },
          { type: 'custom-without-prefix' },
        ]}
      />,
    );
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'frame-renderedframe: 3, note: <img src=x onerror=alert(1)>, meta: {"size":[1,2]}',
      'custom-without-prefix',
    ]);
    expect(container.querySelector('img')).toBeNull();
  });

  it('cuts a very long field short', () => {
    render(<TaskEventList events={[{ type: 'event.log', text: 'y'.repeat(500) }]} />);
    const item = screen.getByRole('listitem');
    expect(item.textContent).toHaveLength('log'.length + 'text: '.length + 200);
    expect(item.textContent?.endsWith('…')).toBe(true);
  });

  it('takes its label and empty text', () => {
    render(<TaskEventList label="Frames" emptyText="Nothing rendered yet." />);
    expect(screen.getByText('Frames')).toBeInTheDocument();
    expect(screen.getByText('Nothing rendered yet.')).toBeInTheDocument();
  });

  it('reports events that are not an array and shows the empty state', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    // @ts-expect-error: a malformed events prop on purpose
    const { container } = render(<TaskEventList events={{ type: 'event.x' }} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'empty');
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/`events`.*TaskEventList/));
  });

  it('forwards its ref and spreads other props', () => {
    const ref = createRef<HTMLDivElement>();
    render(<TaskEventList ref={ref} data-testid="events" className="mine" />);
    expect(ref.current).toBe(screen.getByTestId('events'));
    expect(ref.current).toHaveClass('taskwire-events', 'mine');
  });
});

describe('TaskEventList scrolling', () => {
  it('can be reached with the keyboard, since the list scrolls', () => {
    render(<TaskEventList events={[{ type: 'event.tick', n: 1 }]} />);
    expect(screen.getByRole('list')).toHaveAttribute('tabindex', '0');
  });
});
