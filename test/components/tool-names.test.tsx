/**
 * Tool names through the messages: UsageBreakdown and CreditCostPreview show a display name per
 * tool id (the `tools` group), falling back to the id. The demo tools' ids are read from the
 * reference service's own answers (a quote and a run of every priced demo task, through the real
 * client), so a tool added to the demo without a German name fails here.
 */
import { render, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import {
  CreditCostPreview,
  TaskwireMessagesProvider,
  UsageBreakdown,
  type TaskwireMessagesOverride,
} from '../../src/components/index.js';
import { de } from '../../src/locales/de.js';
import type { OptionsResult } from '../../src/protocol/start-answers.js';
import type { Usage } from '../../src/protocol/usage.js';
import { createReferenceService, demoTaskSchemas } from '../../src/reference/index.js';
import { DEMO_TOKENS } from '../support/demo-auth.js';

const service = createReferenceService({ timeScale: 0.001 });
afterAll(() => service.close());

/** A quote and the usage of a run of each priced demo task, as the service answers them. */
const priced: { task: string; quote: OptionsResult; usage: Usage | undefined }[] = [];

beforeAll(async () => {
  const client = createTaskClient({
    baseUrl: 'http://taskwire.test',
    ...DEMO_TOKENS,
    tasks: demoTaskSchemas,
    fetch: (request) => service.fetch(request),
  });
  const runs = [
    ['render-video', { frames: 2, frameMs: 1 }],
    ['generate-images', { prompt: 'a lighthouse', count: 2 }],
    ['translate-text', { text: 'Bonjour', targetLanguage: 'de' }],
    ['export-data', { format: 'csv' }],
  ] as const;
  for (const [task, params] of runs) {
    const quote = await client.options(task, params as never);
    const record = await client.execute(task, params as never);
    priced.push({ task, quote, usage: record.usage });
  }
});

/** Every tool id the demo's quotes and runs name. */
function demoToolIds(): string[] {
  const ids = priced.flatMap(({ quote, usage }) => [
    ...(quote.monetization ? [quote.monetization.toolId] : []),
    ...(usage?.details.map((detail) => detail.toolId) ?? []),
  ]);
  return [...new Set(ids)].sort();
}

/**
 * The words of every text node under `root`, split at spaces and punctuation but not at hyphens,
 * so an id shows as one word ("image-gen") and a name that holds an id's letters ("Datenexport")
 * is not mistaken for it.
 */
function wordsShown(root: Element): string[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const words: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    words.push(...(node.textContent ?? '').split(/[^\p{L}\p{N}-]+/u).filter(Boolean));
  }
  return words;
}

function inGerman(node: React.ReactNode) {
  return render(
    <TaskwireMessagesProvider messages={de} locale="de">
      {node}
    </TaskwireMessagesProvider>,
  );
}

describe('tool names', () => {
  it('reads the tools of every priced demo task from the service', () => {
    expect(demoToolIds()).toEqual([
      'export',
      'image-gen',
      'safety-check',
      'translate',
      'upscale',
      'video-render',
    ]);
  });

  it.each(['render-video', 'generate-images', 'translate-text', 'export-data'])(
    'shows no raw tool id in a German usage table and cost preview of %s',
    (task) => {
      const { quote, usage } = priced.find((run) => run.task === task)!;
      const { container } = inGerman(
        <>
          <CreditCostPreview quote={quote} />
          <UsageBreakdown usage={usage} quote={quote} />
        </>,
      );
      expect(container.querySelectorAll('tbody tr').length).toBeGreaterThan(0);
      const words = wordsShown(container);
      for (const id of demoToolIds()) expect(words).not.toContain(id);
    },
  );

  it('names the demo tools in German', () => {
    const image = priced.find((run) => run.task === 'generate-images')!;
    inGerman(
      <>
        <CreditCostPreview quote={image.quote} />
        <UsageBreakdown usage={image.usage} />
      </>,
    );
    expect(screen.getByText('Werkzeug', { selector: 'dt' }).nextSibling).toHaveTextContent(
      'Bilderzeugung',
    );
    const rows = screen.getAllByRole('rowheader').map((header) => header.textContent);
    expect(rows).toEqual(['Bilderzeugung', 'Hochskalierung', 'Sicherheitsprüfung', 'Summe']);
  });

  it('falls back to the id for a tool without a name, an inherited member’s name included', () => {
    const usage: Usage = {
      credits: 3,
      details: [
        { toolId: 'lens-flare', price: 1, amount: 1, credits: 1, failed: false },
        { toolId: 'constructor', price: 1, amount: 2, credits: 2, failed: false },
      ],
    };
    inGerman(
      <>
        <CreditCostPreview quote={{ monetization: { toolId: 'toString' }, credits: 3 }} />
        <UsageBreakdown usage={usage} />
      </>,
    );
    expect(screen.getByText('Werkzeug', { selector: 'dt' }).nextSibling).toHaveTextContent(
      /^toString$/,
    );
    const rows = screen.getAllByRole('rowheader').map((header) => header.textContent);
    expect(rows).toEqual(['lens-flare', 'constructor', 'Summe']);
  });

  it('takes an app’s own names in part, over the locale’s, in a row’s mismatch warning too', () => {
    const names: TaskwireMessagesOverride = { tools: { 'lens-flare': 'Blendenfleck' } };
    const usage: Usage = {
      credits: 5,
      details: [{ toolId: 'lens-flare', price: 2, amount: 2, credits: 5, failed: false }],
    };
    const { container } = inGerman(
      <TaskwireMessagesProvider messages={names}>
        <UsageBreakdown usage={usage} />
        <UsageBreakdown usage={usage} messages={{ tools: { 'lens-flare': 'Lichtreflex' } }} />
      </TaskwireMessagesProvider>,
    );
    const rows = screen.getAllByRole('rowheader').map((header) => header.textContent);
    expect(rows).toEqual(['Blendenfleck', 'Summe', 'Lichtreflex', 'Summe']);
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent(/^.*Blendenfleck: berechnet/);
    expect(wordsShown(container)).not.toContain('lens-flare');
  });
});
