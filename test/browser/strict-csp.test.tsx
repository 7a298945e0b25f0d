/// <reference types="vite/client" />
// Server-rendered components in a page whose Content-Security-Policy forbids inline styles
// (`style-src 'self'`): Chromium ignores every style attribute there, so what the page shows before
// React hydrates is what the server HTML draws with the stylesheet alone. The bar must already show
// its real fill, not 0 % until the next update.
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import stylesheetUrl from '../../src/styles.css?url';
import { TaskProgress } from '../../src/components/index.js';

/** A loaded page with the policy, the package's stylesheet and `html` in its body. */
interface StrictPage {
  document: Document;
  /** The policy violations the page reported, as `directive: sample`. */
  violations: () => string[];
}

const frames: HTMLIFrameElement[] = [];

afterEach(() => {
  for (const frame of frames.splice(0)) frame.remove();
});

async function openStrictPage(html: string): Promise<StrictPage> {
  const frame = document.createElement('iframe');
  frame.width = '600';
  frame.height = '800';
  // A srcdoc page has this page's origin, so `'self'` allows the stylesheet from the test server.
  // The script only records violations (the policy limits styles, not scripts); the probe is an
  // inline style the policy must block, to prove it is in force.
  frame.srcdoc = `<!doctype html>
<html lang="en">
  <head>
    <meta http-equiv="Content-Security-Policy" content="style-src 'self'" />
    <script>
      window.violations = [];
      window.probeRefused = new Promise((resolve) => {
        document.addEventListener('securitypolicyviolation', (event) => {
          window.violations.push(event.effectiveDirective + ': ' + event.sample);
          if (event.target.id === 'probe') resolve();
        });
      });
    </script>
    <link rel="stylesheet" href="${stylesheetUrl}" />
  </head>
  <body>
    ${html}
    <div id="probe" style="width: 123px">probe</div>
  </body>
</html>`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  frames.push(frame);
  await loaded;
  const frameWindow = frame.contentWindow as
    (Window & { violations: string[]; probeRefused: Promise<void> }) | null;
  const frameDocument = frame.contentDocument;
  if (!frameWindow || !frameDocument) throw new Error('the page did not load');
  // Violations are reported in tasks of their own, in document order: once the probe's (the last
  // element) has come, any refusal of the components' HTML has come before it.
  await frameWindow.probeRefused;
  return { document: frameDocument, violations: () => [...frameWindow.violations] };
}

/** The share of the track that the fill covers, as drawn (the track clips the fill). */
function drawnFill(bar: Element): number {
  const fill = bar.querySelector('.taskwire-progress__indicator');
  if (!fill) throw new Error('no fill drawn');
  const track = bar.getBoundingClientRect();
  const box = fill.getBoundingClientRect();
  const shown = Math.max(0, Math.min(box.right, track.right) - Math.max(box.left, track.left));
  return shown / track.width;
}

describe('TaskProgress', () => {
  it('draws the right fill from server HTML under a CSP that forbids inline styles', async () => {
    const states = [
      <TaskProgress key="queued" status="queued" label="queued" />,
      <TaskProgress key="running" status="running" percent={25} label="running" />,
      <TaskProgress key="late" status="running" percent={72.5} label="late" />,
      <TaskProgress key="reconnecting" status="reconnecting" percent={26} label="reconnecting" />,
      <TaskProgress key="completed" status="completed" label="completed" />,
      <TaskProgress key="failed" status="failed" percent={60} label="failed" />,
    ];
    const page = await openStrictPage(renderToString(<>{states}</>));

    const bars = [...page.document.querySelectorAll('[role="progressbar"]')];
    expect(bars).toHaveLength(states.length);
    const fills = bars.map((bar) => Math.round(drawnFill(bar) * 1000) / 1000);
    expect(fills).toEqual([0, 0.25, 0.725, 0.26, 1, 0.6]);

    const probe = page.document.getElementById('probe');
    if (!probe) throw new Error('no probe');
    // The policy is in force: the probe's inline width was refused, and it was the only refusal.
    expect(probe.getBoundingClientRect().width).not.toBe(123);
    expect(page.violations()).toEqual(['style-src-attr: ']);

    // The stylesheet drew it: the track's height and colours come from the theme.
    const running = bars[1]!;
    const fill = running.querySelector('.taskwire-progress__indicator')!;
    const view = page.document.defaultView!;
    expect(running.getBoundingClientRect().height).toBeCloseTo(8, 0);
    expect(view.getComputedStyle(running).backgroundColor).toBe('rgb(225, 230, 235)');
    expect(view.getComputedStyle(fill).backgroundColor).toBe('rgb(9, 105, 218)');
  });

  it('fills from the right from server HTML right to left, under the same policy', async () => {
    const page = await openStrictPage(
      renderToString(
        <div dir="rtl" lang="ar">
          <TaskProgress status="running" percent={25} label="running" />
          <TaskProgress status="failed" percent={60} label="failed" />
        </div>,
      ),
    );
    const bars = [...page.document.querySelectorAll('[role="progressbar"]')];
    expect(bars.map((bar) => Math.round(drawnFill(bar) * 1000) / 1000)).toEqual([0.25, 0.6]);
    for (const bar of bars) {
      const track = bar.getBoundingClientRect();
      const fill = bar.querySelector('.taskwire-progress__indicator')!.getBoundingClientRect();
      expect(fill.right).toBeCloseTo(track.right, 1);
      expect(fill.left).toBeGreaterThan(track.left + track.width / 4);
    }
    expect(page.violations()).toEqual(['style-src-attr: ']);
  });

  it('sweeps the indeterminate bar from server HTML under the same policy', async () => {
    const page = await openStrictPage(renderToString(<TaskProgress status="running" />));
    const fill = page.document.querySelector('.taskwire-progress__indicator')!;
    const view = page.document.defaultView!;
    expect(view.getComputedStyle(fill).animationName).toBe('taskwire-progress-sweep');
    const track = page.document.querySelector('[role="progressbar"]')!.getBoundingClientRect();
    expect(fill.getBoundingClientRect().width / track.width).toBeCloseTo(0.4, 2);
  });
});
