/**
 * The components' messages: every state of every component under the German
 * messages leaves no English word (the words derived from the English messages themselves, see
 * stories/english-words.ts); messages given whole or in part, through a provider or a prop; the
 * provider's locale; and the connected TaskList under `TaskwireProvider` (the test kit's), against
 * the real reference service.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import {
  CreditCostPreview,
  englishMessages,
  TaskList,
  TaskProgress,
  TaskStatusBadge,
  TaskwireMessagesProvider,
  createTaskJournal,
} from '../../src/index.js';
import { describeTimeLeft } from '../../src/components/task-progress/describe-time-left.js';
import { de } from '../../src/locales/de.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTaskSchemas,
} from '../../src/reference/index.js';
import { renderWithTaskwire } from '../../src/testing/index.js';
import {
  componentStates,
  germanSample,
  type ComponentName,
} from '../../stories/component-states.js';
import {
  ENGLISH_WORDS,
  SHARED_WITH_GERMAN,
  findEnglishWords,
  messageTexts,
  wordsOf,
} from '../../stories/english-words.js';

const components = Object.keys(componentStates) as ComponentName[];

/** Every state of `component`, with German sample text, inside `wrap`. */
function renderStates(component: ComponentName, wrap: (node: React.ReactNode) => React.ReactNode) {
  const cells = componentStates[component](germanSample);
  const { container } = render(
    <>{wrap(cells.map((cell) => <section key={cell.name}>{cell.node}</section>))}</>,
  );
  return { container, cells };
}

describe('the English word list', () => {
  it('is derived from every English message, functions called in both plural forms', () => {
    // A sample of what it must hold, from strings, functions, and plural branches alike.
    for (const word of ['reconnecting', 'percent', 'seconds', 'minutes', 'hour', 'hours']) {
      expect(ENGLISH_WORDS).toContain(word);
    }
    for (const word of ['charged', 'quoted', 'dismiss', 'started', 'open', 'events', 'done']) {
      expect(ENGLISH_WORDS).toContain(word);
    }
    expect(ENGLISH_WORDS.size).toBeGreaterThan(60);
  });

  it('leaves out only words German really writes the same way', () => {
    const german = new Set(messageTexts(de).flatMap(wordsOf));
    for (const word of SHARED_WITH_GERMAN) expect(german).toContain(word);
  });
});

describe('every component in every state, in German', () => {
  it.each(components)('%s says no English word', (component) => {
    const { container, cells } = renderStates(component, (node) => (
      <TaskwireMessagesProvider messages={de} locale="de">
        {node}
      </TaskwireMessagesProvider>
    ));
    expect(cells.length).toBeGreaterThan(1);
    expect(findEnglishWords(container)).toEqual([]);
  });

  it.each(components)('%s in English is caught by the same check', (component) => {
    const { container } = renderStates(component, (node) => node);
    expect(findEnglishWords(container)).not.toEqual([]);
  });

  it('catches one message left in English, in a live region or an attribute', () => {
    const messages = {
      ...de,
      status: { ...de.status, queued: 'Queued' },
      taskProgress: {
        ...de.taskProgress,
        percent: (_: number, figure: string) => `${figure} percent`,
      },
    };
    const { container } = renderStates('TaskProgress', (node) => (
      <TaskwireMessagesProvider messages={messages} locale="de">
        {node}
      </TaskwireMessagesProvider>
    ));
    expect(findEnglishWords(container)).toEqual(['queued', 'percent']);
  });
});

describe('overriding the messages', () => {
  it('speaks English in the user locale outside any provider', () => {
    render(<CreditCostPreview quote={{ credits: 1 }} />);
    expect(screen.getByText('1 credit')).toBeInTheDocument();
    expect(screen.getByText('Cost')).toBeInTheDocument();
  });

  it('takes a part of a group from the provider and keeps the rest', () => {
    render(
      <TaskwireMessagesProvider messages={{ status: { running: 'Busy', queued: undefined } }}>
        <TaskStatusBadge status="running" />
        <TaskStatusBadge status="queued" />
      </TaskwireMessagesProvider>,
    );
    expect(screen.getByText('Busy')).toBeInTheDocument();
    expect(screen.getByText('Queued')).toBeInTheDocument();
  });

  it('lays a component prop over the provider, and an inner provider over an outer', () => {
    render(
      <TaskwireMessagesProvider messages={de}>
        <TaskwireMessagesProvider messages={{ status: { completed: 'Fertig' } }}>
          <TaskStatusBadge status="completed" />
          <TaskStatusBadge status="failed" />
          <TaskStatusBadge status="running" messages={{ status: { running: 'Arbeitet' } }} />
        </TaskwireMessagesProvider>
      </TaskwireMessagesProvider>,
    );
    expect(screen.getByText('Fertig')).toBeInTheDocument();
    expect(screen.getByText('Fehlgeschlagen')).toBeInTheDocument();
    expect(screen.getByText('Arbeitet')).toBeInTheDocument();
  });

  it("formats in the provider's locale unless the component has its own", () => {
    render(
      <TaskwireMessagesProvider messages={de} locale="de">
        <CreditCostPreview data-testid="de" quote={{ credits: 7.5 }} />
        <CreditCostPreview data-testid="en" quote={{ credits: 7.5 }} locale="en" />
      </TaskwireMessagesProvider>,
    );
    expect(screen.getByTestId('de')).toHaveTextContent('7,5 Credits');
    expect(screen.getByTestId('en')).toHaveTextContent('7.5 Credits');
  });

  it('speaks the progress in German, figures included', () => {
    render(
      <TaskwireMessagesProvider messages={de} locale="de">
        <TaskProgress status="running" percent={45.5} estimatedSecondsLeft={5400} />
      </TaskwireMessagesProvider>,
    );
    const bar = screen.getByRole('progressbar', { name: 'Fortschritt der Aufgabe' });
    expect(bar).toHaveAttribute('aria-valuetext', '46 Prozent, noch etwa 1,5 Stunden');
    expect(screen.getByText('noch etwa 1,5 Std.')).toBeInTheDocument();
  });

  it('words the time left with the plural the count asks for', () => {
    expect(describeTimeLeft(60, 'de', de.timeLeft)?.long).toBe('noch etwa 1 Minute');
    expect(describeTimeLeft(180, 'de', de.timeLeft)?.long).toBe('noch etwa 3 Minuten');
    expect(describeTimeLeft(3600 * 2, 'de', de.timeLeft)?.long).toBe('noch etwa 2 Stunden');
    expect(describeTimeLeft(180, 'en')).toEqual(
      describeTimeLeft(180, 'en', englishMessages.timeLeft),
    );
  });
});

describe('TaskwireProvider', () => {
  const services: ReturnType<typeof createReferenceService>[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
  });

  it('gives the connected TaskList its messages and locale', async () => {
    const service = createReferenceService({ timeScale: 0.05 });
    services.push(service);
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      tasks: demoTaskSchemas,
      fetch: (request) => service.fetch(request),
      scope: 'messages-test-user',
    });
    const journal = createTaskJournal({ storage: 'memory' });
    const answer = await client.submit('echo', { message: 'hallo' });
    journal.record(client.scope, {
      task: 'echo',
      id: answer.id,
      mode: 'submit',
      status: answer.status,
      startedAt: Date.now(),
    });
    const { container, queryClient } = renderWithTaskwire(<TaskList />, {
      client,
      journal,
      messages: de,
      locale: 'de',
    });
    const list = await screen.findByRole('list', { name: 'Aufgaben' });
    await waitFor(() => expect(within(list).getByText('Abgeschlossen')).toBeInTheDocument());
    expect(
      // The time in the provider's locale: German writes 24 hours, two digits each ("09:05").
      within(list).getByRole('button', { name: /^echo ausblenden, gestartet um \d\d:\d\d$/ }),
    ).toHaveTextContent('Ausblenden');
    expect(findEnglishWords(container)).toEqual([]);
    queryClient.clear();
  });
});
