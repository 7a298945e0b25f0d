/**
 * What the components show for an error comes from the messages' `errors` group, by the error's
 * reason and code (docs/protocol.md, "Error bodies"): every error state of every component that
 * shows one (CreditCostPreview's `error`, TaskProgress's failed state), for every code and every
 * reason, in German says no English word (the list derived from the English messages, as for the
 * components' own words), and the service's and the client's own English sentences never show.
 * The errors are the real client's, against the real reference service, where one can be made.
 */
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskClient, TaskwireError, type TaskwireErrorCode } from '../../src/client/index.js';
import {
  CreditCostPreview,
  englishMessages,
  errorText,
  streamDisplayStatus,
  TaskProgress,
  TaskwireMessagesProvider,
  type ErrorReasonName,
} from '../../src/index.js';
import { de } from '../../src/locales/de.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  type ErrorReason,
} from '../../src/reference/index.js';
import type { refusal } from '../../src/client/error-factories.js';
import type { TaskProxyErrorReason } from '../../src/server/proxy-answers.js';
import type { ReadRefusalReason } from '../../src/events/read-answers.js';
import { findEnglishWords } from '../../stories/english-words.js';

// Every reason of the protocol, of the client's refusals and of the proxy has words: this fails to compile when one is added
// without them.
const everyServiceReason: ErrorReasonName[] = [] as (
  ErrorReason | TaskProxyErrorReason | ReadRefusalReason | Parameters<typeof refusal>[0]
)[];

const CODES: TaskwireErrorCode[] = ['http', 'network', 'timeout', 'protocol', 'aborted', 'auth'];
const REASONS = Object.keys(englishMessages.errors).filter((key) => /^[A-Z_]+$/.test(key));

/** The errors a component may be given: every code alone, every reason with its code, failures. */
function everyError(): { name: string; error: unknown }[] {
  const english = 'The service answered 404 TASK_NOT_FOUND: No task named foo.';
  return [
    ...CODES.map((code) => ({
      name: code,
      error: new TaskwireError(code, english, code === 'http' ? { status: 404 } : {}),
    })),
    { name: 'http without a status', error: new TaskwireError('http', english) },
    {
      name: 'http, a reason of its own',
      error: new TaskwireError('http', english, { status: 409, reason: 'QUOTA_SPENT' }),
    },
    ...REASONS.map((reason) => ({
      name: reason,
      error: new TaskwireError('http', english, { status: 400, reason }),
    })),
    ...REASONS.map((reason) => ({
      name: `a failed task's ${reason}`,
      error: { status: 'error', statusCode: 500, reason, message: english },
    })),
    {
      name: 'a failed task with a reason of its own',
      error: { status: 'error', statusCode: 500, reason: 'OUT_OF_MEMORY', message: english },
    },
    { name: 'not an error at all', error: 'TASK_NOT_FOUND' },
  ];
}

/** Every error state of every component that shows an error, for `error`. */
function errorStates(error: unknown): ReactNode {
  return (
    <>
      <CreditCostPreview status="error" error={error} onRetry={() => {}} />
      <TaskProgress status="failed" label="Video rendern" percent={40} error={error} />
      <TaskProgress status={streamDisplayStatus('error')} label="Video rendern" error={error} />
    </>
  );
}

describe('error texts', () => {
  it('has words for every reason of the protocol, the client, the journal and the proxy', () => {
    expect(everyServiceReason).toEqual([]);
    for (const reason of [
      'UNAUTHENTICATED',
      'TASK_NOT_FOUND',
      'RESULT_EXPIRED',
      'EXECUTE_TIMEOUT',
      'TASK_ERROR',
      'INTERNAL',
      'REDIRECT',
      'SCOPE_REQUIRED',
      'INVALID_BASE_URL',
      'INVALID_PARAMS',
      'CONNECT_FAILED',
      'NOT_A_TASKWIRE_ANSWER',
      'JOURNAL_ENTRY_REFUSED',
      'UPSTREAM_UNAVAILABLE',
      'EVENTS_EXPIRED',
      'EVENTS_UNAVAILABLE',
      'INVALID_FOLLOW',
    ]) {
      expect(REASONS).toContain(reason);
    }
    expect(Object.keys(de.errors).sort()).toEqual(Object.keys(englishMessages.errors).sort());
  });

  it.each(everyError())('says no English word in German: $name', ({ error }) => {
    const { container } = render(
      <TaskwireMessagesProvider messages={de} locale="de">
        {errorStates(error)}
      </TaskwireMessagesProvider>,
    );
    // The error's text in each state: the preview's note and both bars' detail.
    expect(container.querySelectorAll('.taskwire-cost__error .taskwire-cost__note')).toHaveLength(
      1,
    );
    expect(container.querySelectorAll('.taskwire-progress__detail')).toHaveLength(2);
    expect(container.textContent).not.toContain('TASK_NOT_FOUND');
    expect(findEnglishWords(container)).toEqual([]);
  });

  it.each(everyError())('is caught by the same check in English: $name', ({ error }) => {
    const { container } = render(<>{errorStates(error)}</>);
    expect(findEnglishWords(container)).not.toEqual([]);
  });

  it('picks the reason first, then the code; the status as a figure; an app error by its message', () => {
    const text = englishMessages.errors;
    expect(errorText(new TaskwireError('network', 'x', { reason: 'CONNECT_FAILED' }), text)).toBe(
      text.CONNECT_FAILED,
    );
    expect(errorText(new TaskwireError('network', 'x'), text)).toBe(text.network);
    expect(errorText(new TaskwireError('http', 'x', { status: 404 }), text)).toBe(
      'Unexpected answer (404): the service address may be wrong.',
    );
    expect(errorText(new TaskwireError('http', 'x', { status: 409, reason: 'MINE' }), text)).toBe(
      'The service refused the request (409).',
    );
    expect(errorText({ reason: 'OUT_OF_MEMORY', message: 'x' }, text)).toBe(text.taskFailed);
    expect(errorText(new Error('Your order could not be priced.'), text)).toBe(
      'Your order could not be priced.',
    );
    expect(errorText(undefined, text)).toBe(text.unknown);
    // A reason that only looks like one of the other keys is no reason.
    expect(errorText({ code: 'nope', reason: 'unknown' }, text)).toBe(text.taskFailed);
  });
});

describe('errors of the real client, shown in German', () => {
  const services: ReturnType<typeof createReferenceService>[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
  });

  function clientOn(baseUrl: string) {
    const service = createReferenceService();
    services.push(service);
    return createTaskClient({
      baseUrl,
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      fetch: (request) => service.fetch(request),
    });
  }

  it('a task the service does not know', async () => {
    const error = await clientOn('http://taskwire.test')
      .options('no-such-task', {})
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'http', status: 404, reason: 'TASK_NOT_FOUND' });
    render(
      <TaskwireMessagesProvider messages={de} locale="de">
        <CreditCostPreview status="error" error={error} />
      </TaskwireMessagesProvider>,
    );
    expect(screen.getByText(de.errors.TASK_NOT_FOUND)).toBeInTheDocument();
  });

  it('a base URL that reaches no endpoint', async () => {
    const error = await clientOn('http://taskwire.test/wrong/prefix/workflows')
      .options('echo', { message: 'hallo' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'http', status: 404 });
    render(
      <TaskwireMessagesProvider messages={de} locale="de">
        <TaskProgress status="failed" error={error} />
      </TaskwireMessagesProvider>,
    );
    expect(error).toMatchObject({ reason: 'NOT_FOUND' });
    expect(screen.getByText(de.errors.NOT_FOUND, { selector: 'p' })).toBeInTheDocument();
  });
});
