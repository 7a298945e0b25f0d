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
      <TaskProgress status="completed" />
      <TaskProgress status="failed" percent={60} failureMessage="The renderer ran out of memory." />
      <CreditCostPreview status="pending" />
      <CreditCostPreview quote={{}} />
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
        <TaskStatusBadge status="completed" /> <TaskStatusBadge status="failed" />
      </p>
      <TaskEventList events={[{ type: 'event.frame-rendered', eventId: 'a', frame: 1 }]} />
      <NotificationActions
        title="Export ready"
        description="Your CSV file is ready."
        actions={[{ deeplink: 'https://example.com/exports/1', mobileDeeplink: 'myapp://e/1' }]}
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
    expect(getComputedStyle(screen.getByTestId('light')).backgroundColor).toBe(
      'rgb(255, 255, 255)',
    );
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

  it('fill the bar to the percentage', () => {
    render(<TaskProgress status="running" percent={25} data-testid="progress" />);
    const track = screen.getByRole('progressbar');
    const indicator = track.firstElementChild;
    if (!indicator) throw new Error('no indicator rendered');
    const trackBox = track.getBoundingClientRect();
    // The inline transform is the target of the 250 ms transition; a freshly rendered bar starts
    // there, with no transition, so the layout already shows the fill.
    expect((indicator as HTMLElement).style.transform).toBe('translateX(-75%)');
    expect(trackBox.height).toBeGreaterThan(0);
    // What shows is the part of the indicator inside the track (which clips it): a quarter of it.
    const indicatorBox = indicator.getBoundingClientRect();
    const shown =
      Math.min(indicatorBox.right, trackBox.right) - Math.max(indicatorBox.left, trackBox.left);
    expect(shown / trackBox.width).toBeCloseTo(0.25, 2);
    expect(getComputedStyle(track).overflow).toBe('hidden');
  });
});
