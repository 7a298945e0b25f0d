// The components in real Chromium: what jsdom cannot show. axe runs with every rule, colour contrast
// included, in the light and the dark theme (both the [data-theme] override and the system setting);
// the keyboard walk uses real key presses; reduced motion is emulated through the DevTools protocol.
import '../../src/styles.css';
import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cdp, userEvent } from 'vitest/browser';
import {
  CreditCostPreview,
  NotificationActions,
  TaskEventList,
  TaskProgress,
  TaskStatusBadge,
  UsageBreakdown,
} from '../../src/components/index.js';

async function axeViolations(container: Element): Promise<string[]> {
  const results = await axe.run(container, { resultTypes: ['violations'] });
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.failureSummary ?? ''} (${node.html})`),
  );
}

async function emulateMedia(name: string, value: string): Promise<void> {
  await cdp().send('Emulation.setEmulatedMedia', { features: [{ name, value }] });
}

function EveryState() {
  const usage = {
    credits: 8,
    details: [
      { toolId: 'image-gen', price: 2, amount: 3, credits: 6, failed: false },
      { toolId: 'upscale', price: 1, amount: 2, credits: 2, failed: false },
      { toolId: 'safety-check', price: 0.5, amount: 2, credits: 1, failed: true },
    ],
  };
  return (
    <div style={{ display: 'grid', gap: 8, padding: 8 }}>
      <TaskProgress status="idle" />
      <TaskProgress status="queued" />
      <TaskProgress status="running" estimatedSecondsLeft={40} />
      <TaskProgress status="running" percent={45} estimatedSecondsLeft={20} />
      <TaskProgress status="reconnecting" percent={26} />
      <TaskProgress status="completed" />
      <TaskProgress status="failed" percent={60} failureMessage="The renderer ran out of memory." />
      <CreditCostPreview status="pending" />
      <CreditCostPreview quote={{}} />
      <CreditCostPreview quote={{}} unpricedIsFree />
      <CreditCostPreview
        quote={{ monetization: { toolId: 'image-gen' }, usageAmount: 3, credits: 6 }}
        isUpdating
        balance={5}
      />
      <CreditCostPreview status="error" error={new Error('Network down')} onRetry={() => {}} />
      <UsageBreakdown usage={usage} quote={{ credits: 10 }} />
      <UsageBreakdown usage={{ ...usage, credits: 12 }} />
      <UsageBreakdown />
      <p>
        <TaskStatusBadge status="queued" /> <TaskStatusBadge status="running" />{' '}
        <TaskStatusBadge status="reconnecting" /> <TaskStatusBadge status="completed" />{' '}
        <TaskStatusBadge status="failed" />
      </p>
      <TaskEventList events={[{ type: 'event.frame-rendered', eventId: 'a', frame: 1 }]} />
      <NotificationActions
        title="Export ready"
        description="Your CSV file is ready."
        actions={[{ deeplink: 'https://example.com/exports/1', mobileDeeplink: 'myapp://e/1' }]}
        appSchemes={['myapp']}
      />
    </div>
  );
}

afterEach(async () => {
  await emulateMedia('prefers-color-scheme', 'light');
  await emulateMedia('prefers-reduced-motion', 'no-preference');
  vi.restoreAllMocks();
});

describe('components in Chromium', () => {
  it('pass every axe rule, colour contrast included, in the light theme', async () => {
    const { container } = render(<EveryState />);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('pass every axe rule in the dark theme set by data-theme', async () => {
    const { container } = render(
      <div data-theme="dark">
        <EveryState />
      </div>,
    );
    const progress = container.querySelector('.taskwire-progress');
    if (!progress) throw new Error('no progress bar rendered');
    expect(getComputedStyle(progress).backgroundColor).toBe('rgb(21, 27, 35)');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('follow the system dark mode, and a data-theme="light" ancestor overrides it', async () => {
    await emulateMedia('prefers-color-scheme', 'dark');
    const { container } = render(
      <>
        <EveryState />
        <div data-theme="light">
          <TaskProgress data-testid="light" />
        </div>
      </>,
    );
    const progress = container.querySelector('.taskwire-progress');
    if (!progress) throw new Error('no progress bar rendered');
    expect(getComputedStyle(progress).backgroundColor).toBe('rgb(21, 27, 35)');
    const light = screen.getByTestId('light').closest('.taskwire-progress');
    if (!light) throw new Error('no light progress rendered');
    expect(getComputedStyle(light).backgroundColor).toBe('rgb(255, 255, 255)');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('reach the retry button with Tab alone and activate it with Enter', async () => {
    const onRetry = vi.fn();
    render(
      <>
        <TaskProgress status="running" percent={10} />
        <CreditCostPreview status="error" error={new Error('Network down')} onRetry={onRetry} />
      </>,
    );
    await userEvent.keyboard('{Tab}');
    const retry = screen.getByRole('button', { name: 'Try again' });
    expect(retry).toHaveFocus();
    expect(getComputedStyle(retry).outlineStyle).toBe('solid');
    await userEvent.keyboard('{Enter}');
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('walk the notification links with Tab in order', async () => {
    render(
      <NotificationActions
        actions={[{ deeplink: 'https://example.com/a', mobileDeeplink: 'myapp://a' }]}
        appSchemes={['myapp']}
      />,
    );
    await userEvent.keyboard('{Tab}');
    expect(screen.getByRole('link', { name: 'Open example.com' })).toHaveFocus();
    await userEvent.keyboard('{Tab}');
    expect(screen.getByRole('link', { name: 'Open in the app' })).toHaveFocus();
  });

  it('animate the indeterminate bar, and keep it still when reduced motion is asked for', async () => {
    render(<TaskProgress status="running" data-testid="progress" />);
    const indicator = screen.getByTestId('progress').querySelector('.taskwire-progress__indicator');
    if (!indicator) throw new Error('no indicator rendered');
    expect(getComputedStyle(indicator).animationName).toBe('taskwire-progress-sweep');
    await emulateMedia('prefers-reduced-motion', 'reduce');
    expect(getComputedStyle(indicator).animationName).toBe('none');
    expect(getComputedStyle(indicator).transitionDuration).toBe('0s');
  });

  it('fill the bar to the percentage, glide on a jump unless reduced motion is asked for, and draw small steps at once', async () => {
    const { rerender } = render(<TaskProgress status="running" percent={25} />);
    const track = screen.getByRole('progressbar');
    const indicator = track.querySelector('.taskwire-progress__indicator');
    if (!indicator) throw new Error('no indicator rendered');
    const shownShare = () => {
      // What shows is the part of the indicator inside the track (which clips it).
      const trackBox = track.getBoundingClientRect();
      const box = indicator.getBoundingClientRect();
      return (
        (Math.min(box.right, trackBox.right) - Math.max(box.left, trackBox.left)) / trackBox.width
      );
    };
    // A freshly rendered bar starts at its percentage, with no transition.
    expect(track.getBoundingClientRect().height).toBeGreaterThan(0);
    expect(shownShare()).toBeCloseTo(0.25, 2);
    expect(indicator.getAnimations()).toEqual([]);
    expect(getComputedStyle(track).overflow).toBe('hidden');

    rerender(<TaskProgress status="running" percent={75} />);
    const moving = indicator.getAnimations();
    expect(moving.map((animation) => (animation as CSSTransition).transitionProperty)).toEqual([
      'width',
    ]);
    await Promise.all(moving.map((animation) => animation.finished));
    expect(shownShare()).toBeCloseTo(0.75, 2);

    // A stream's small step is drawn at once: no transition to run every frame.
    rerender(<TaskProgress status="running" percent={76} />);
    expect(indicator.getAnimations()).toEqual([]);
    expect(shownShare()).toBeCloseTo(0.76, 2);

    await emulateMedia('prefers-reduced-motion', 'reduce');
    rerender(<TaskProgress status="running" percent={90} />);
    expect(indicator.getAnimations()).toEqual([]);
    expect(shownShare()).toBeCloseTo(0.9, 2);
  });

  it('keep a reconnecting bar at its last percentage, in the muted colour', () => {
    render(<TaskProgress status="reconnecting" percent={26} />);
    const track = screen.getByRole('progressbar');
    const indicator = track.querySelector('.taskwire-progress__indicator');
    if (!indicator) throw new Error('no indicator rendered');
    expect(
      indicator.getBoundingClientRect().width / track.getBoundingClientRect().width,
    ).toBeCloseTo(0.26, 2);
    expect(getComputedStyle(indicator).backgroundColor).toBe('rgb(89, 99, 110)');
    expect(screen.getByText('Reconnecting…')).toBeVisible();
  });
});
