import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createTaskClient,
  TaskwireError,
  type TaskClientConfig,
  type TaskwireActivity,
} from '../../src/client/index.js';
import { resumableReadsOf } from '../../src/client/resumable-reads.js';
import { createReferenceService, demoTaskSchemas } from '../../src/reference/index.js';

// Tokens no other string in a run could contain, so a scan of the activity finds any leak.
const USER_TOKEN = 'user-token-7f3a9c0e-secret';
const STALE_USER_TOKEN = 'stale-user-token-0d44b1-secret';
const CLIENT_TOKEN = 'client-token-51e2b8d6-secret';
const THROWN_TOKEN = 'thrown-token-99aa17-secret';
const SECRETS = [USER_TOKEN, STALE_USER_TOKEN, CLIENT_TOKEN, THROWN_TOKEN];

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of closers.splice(0)) await close();
});

/** A fresh reference service, reached in-process, that knows only the distinctive tokens. */
function serve(): Pick<TaskClientConfig, 'baseUrl' | 'fetch'> {
  const service = createReferenceService({
    timeScale: 0.01,
    userTokens: { [USER_TOKEN]: 'user-1' },
    clientTokens: [CLIENT_TOKEN],
  });
  closers.push(() => service.close());
  return { baseUrl: 'http://taskwire.test', fetch: (request) => service.fetch(request) };
}

/** A client of a fresh service, and every activity it reports. */
function observedClient(config: Partial<TaskClientConfig> = {}) {
  const client = createTaskClient({
    ...serve(),
    userToken: USER_TOKEN,
    clientToken: CLIENT_TOKEN,
    tasks: demoTaskSchemas,
    ...config,
  });
  const activities: TaskwireActivity[] = [];
  const unsubscribe = client.subscribe((activity) => activities.push(activity));
  return { client, activities, unsubscribe };
}

/** Waits until an activity matching `match` has been delivered, and returns it. */
async function delivered<Type extends TaskwireActivity['type']>(
  activities: TaskwireActivity[],
  type: Type,
  match: (activity: Extract<TaskwireActivity, { type: Type }>) => boolean = () => true,
): Promise<Extract<TaskwireActivity, { type: Type }>> {
  return vi.waitFor(() => {
    const found = activities.find(
      (activity): activity is Extract<TaskwireActivity, { type: Type }> =>
        activity.type === type && match(activity as Extract<TaskwireActivity, { type: Type }>),
    );
    if (found === undefined) throw new Error(`no ${type} activity yet`);
    return found;
  });
}

function expectNoSecret(activities: TaskwireActivity[]): void {
  expect(activities.length).toBeGreaterThan(0);
  for (const activity of activities) {
    const text = JSON.stringify(activity);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  }
}

describe('client.subscribe', () => {
  it('reports a submit and its polls: each request with method, path, status, duration and key, then each answer', async () => {
    const { client, activities } = observedClient();
    const submitted = await client.submit(
      'translate-text',
      { text: 'Hello', targetLanguage: 'de' },
      { idempotencyKey: 'key-activity-1' },
    );
    let record = await client.getResult('translate-text', submitted.id);
    while (record.status !== 'COMPLETED' && record.status !== 'FAILED') {
      await new Promise((resolve) => setTimeout(resolve, 5));
      record = await client.getResult('translate-text', submitted.id);
    }

    const submitRequest = await delivered(activities, 'request', (a) => a.operation === 'submit');
    expect(submitRequest).toMatchObject({
      call: 1,
      task: 'translate-text',
      method: 'POST',
      path: '/workflows/translate-text/submit',
      attempt: 0,
      status: 202,
      idempotencyKey: 'key-activity-1',
      error: undefined,
      taskId: undefined,
    });
    expect(submitRequest.durationMs).toBeGreaterThanOrEqual(0);
    const submitAnswer = await delivered(activities, 'answer', (a) => a.operation === 'submit');
    expect(submitAnswer).toMatchObject({ call: 1, taskId: submitted.id, answer: submitted });

    const finalAnswer = await delivered(
      activities,
      'answer',
      (a) => a.operation === 'result' && a.answer.status === 'COMPLETED',
    );
    expect(finalAnswer.answer).toBe(record);
    expect(finalAnswer.taskId).toBe(submitted.id);
    expect(record.usage?.credits).toBe(1);
    const polls = activities.filter(
      (activity) => activity.type === 'request' && activity.operation === 'result',
    );
    expect(polls.length).toBeGreaterThan(0);
    for (const poll of polls) {
      expect(poll).toMatchObject({
        method: 'GET',
        path: `/workflows/translate-text/${submitted.id}/result`,
        taskId: submitted.id,
        status: 200,
        idempotencyKey: undefined,
      });
    }
    // Each call has a number of its own, shared by its request and its answer.
    const calls = new Set(activities.map((activity) => activity.call));
    expect(calls.size).toBe(1 + polls.length);
    expectNoSecret(activities);
  });

  it('reports a stream: its POST, then every validated event in order, with the task id', async () => {
    const { client, activities } = observedClient();
    const stream = client.stream('render-video', { frames: 3, frameMs: 1 });
    const events: unknown[] = [];
    for await (const event of stream) events.push(event);

    const last = await delivered(activities, 'event', (a) => a.event.type === 'task.completed');
    const request = await delivered(activities, 'request');
    expect(request).toMatchObject({
      operation: 'stream',
      method: 'POST',
      path: '/workflows/render-video/stream',
      status: 200,
    });
    const streamed = activities.filter((activity) => activity.type === 'event');
    expect(streamed.map((activity) => activity.event)).toEqual(events);
    for (const activity of streamed) {
      expect(activity).toMatchObject({ call: request.call, taskId: stream.taskId });
    }
    expect(last.event).toMatchObject({ usage: { credits: 1.5 } });
    expect(activities.indexOf(request)).toBeLessThan(activities.indexOf(streamed[0]!));
    expectNoSecret(activities);
  });

  it("reports each event of the page's one multiplexed read with its own task name and id", async () => {
    const { client, activities } = observedClient();
    const reads = resumableReadsOf(client)!;
    const video = (await client.submit('render-video', { frames: 2, frameMs: 1 })).id;
    const echo = (await client.submit('echo', { message: 'hi' })).id;
    const followed: Array<{ task: string; id: string }> = [];
    for await (const message of reads.follow([
      { task: 'render-video', id: video, after: null },
      { task: 'echo', id: echo, after: null },
    ]))
      followed.push({ task: message.task, id: message.id });

    const read = await delivered(activities, 'request', (a) => a.path === '/workflows/events');
    const events = activities.filter(
      (activity) => activity.call === read.call && activity.type === 'event',
    );
    // Each event names the task it belongs to, so a panel or a log files it under that task.
    expect(events.map(({ task, taskId }) => ({ task, id: taskId }))).toEqual(followed);
    expect(new Set(events.map((activity) => activity.taskId))).toEqual(new Set([video, echo]));
    expectNoSecret(activities);
  });

  it('reports Execute with its record (charged credits) and Options with its quote', async () => {
    const { client, activities } = observedClient();
    const quote = await client.options('generate-images', { prompt: 'a cat', count: 2 });
    const record = await client.execute('generate-images', { prompt: 'a cat', count: 2 });

    const quoted = await delivered(activities, 'answer', (a) => a.operation === 'options');
    expect(quoted).toMatchObject({ task: 'generate-images', taskId: undefined, answer: quote });
    expect(quote.credits).toBe(5);
    const executed = await delivered(activities, 'answer', (a) => a.operation === 'execute');
    expect(executed).toMatchObject({ taskId: record.id, answer: record });
    expect(record.usage?.credits).toBe(5);
    await delivered(activities, 'request', (a) => a.path === '/workflows/generate-images/execute');
    await delivered(activities, 'request', (a) => a.path === '/workflows/generate-images/options');
  });

  it('reports the one retry after a 401 between the two requests, with the same idempotency key', async () => {
    let token = STALE_USER_TOKEN;
    const { client, activities } = observedClient({
      userToken: () => token,
      onUnauthorized: () => {
        token = USER_TOKEN;
      },
    });
    await client.submit('echo', { message: 'hi' }, { idempotencyKey: 'key-retry' });

    const answer = await delivered(activities, 'answer');
    const sequence = activities.slice(0, activities.indexOf(answer) + 1);
    expect(sequence.map((activity) => activity.type)).toEqual([
      'request',
      'retry',
      'request',
      'answer',
    ]);
    expect(sequence[0]).toMatchObject({ attempt: 0, status: 401, idempotencyKey: 'key-retry' });
    expect(sequence[1]).toMatchObject({
      reason: 'unauthorized',
      status: 401,
      method: 'POST',
      path: '/workflows/echo/submit',
    });
    expect(sequence[2]).toMatchObject({ attempt: 1, status: 202, idempotencyKey: 'key-retry' });
    expectNoSecret(activities);
  });

  it('reports failures: an error answer, a refused call, a failed task and a failing token function', async () => {
    const { client, activities } = observedClient();
    await expect(client.getResult('echo', 'no-such-task')).rejects.toThrow(TaskwireError);
    await expect(client.submit('echo', { message: 42 })).rejects.toThrow(TaskwireError);
    const failed = client.stream('failing-task', {});
    for await (const event of failed) void event;

    const notFound = await delivered(activities, 'error', (a) => a.operation === 'result');
    expect(notFound).toMatchObject({
      code: 'http',
      status: 404,
      taskId: 'no-such-task',
      retryable: false,
    });
    expect(notFound.reason).toEqual(expect.any(String));
    expect(notFound.message).toEqual(expect.any(String));
    const refused = await delivered(activities, 'error', (a) => a.operation === 'submit');
    expect(refused).toMatchObject({ code: 'protocol', reason: 'INVALID_PARAMS' });
    // A refused call sends nothing.
    expect(
      activities.some((activity) => activity.type === 'request' && activity.call === refused.call),
    ).toBe(false);
    await delivered(activities, 'event', (a) => a.event.type === 'task.failed');

    const throwing = observedClient({
      userToken: () => {
        throw new Error(`the token ${THROWN_TOKEN} has expired`);
      },
    });
    await expect(throwing.client.getResult('echo', 'abc')).rejects.toThrow(TaskwireError);
    const auth = await delivered(throwing.activities, 'error');
    expect(auth).toMatchObject({ code: 'auth', retryable: true });
    expectNoSecret([...activities, ...throwing.activities]);
  });

  it('reports an aborted request and an aborted stream', async () => {
    let bothSent!: () => void;
    const sent = new Promise<void>((resolve) => (bothSent = resolve));
    let requests = 0;
    const { client, activities } = observedClient({
      // Never answers: only the abort ends the request.
      fetch: () => {
        requests += 1;
        if (requests === 2) bothSent();
        return new Promise<Response>(() => {});
      },
    });
    const controller = new AbortController();
    const polling = client.getResult('echo', 'task-1', { signal: controller.signal });
    const streaming = client.stream('echo', { message: 'hi' }, { signal: controller.signal });
    const firstEvent = streaming[Symbol.asyncIterator]().next();
    // Both requests are in fetch's hands before the abort.
    await sent;
    controller.abort();
    await expect(polling).rejects.toMatchObject({ code: 'aborted' });
    await expect(firstEvent).rejects.toMatchObject({ code: 'aborted' });

    const request = await delivered(activities, 'request', (a) => a.operation === 'result');
    expect(request).toMatchObject({ status: undefined, error: 'aborted', taskId: 'task-1' });
    await delivered(
      activities,
      'request',
      (a) => a.operation === 'stream' && a.error === 'aborted',
    );
    await delivered(activities, 'error', (a) => a.operation === 'result' && a.code === 'aborted');
    await delivered(activities, 'error', (a) => a.operation === 'stream' && a.code === 'aborted');
  });

  it('stops delivering to a listener once it unsubscribed, and keeps the others', async () => {
    const { client, activities, unsubscribe } = observedClient();
    const witness: TaskwireActivity[] = [];
    client.subscribe((activity) => witness.push(activity));
    await client.options('echo', { message: 'one' });
    await delivered(activities, 'answer');
    const seen = activities.length;

    unsubscribe();
    await client.options('echo', { message: 'two' });
    await delivered(witness, 'answer', (a) => a.call === 2);
    expect(activities).toHaveLength(seen);
    expect(witness.length).toBeGreaterThan(seen);
  });

  it('logs what a listener throws and lets the call and the other listeners go on', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { client, activities } = observedClient();
    const failure = new Error('the listener broke');
    client.subscribe(() => {
      throw failure;
    });
    await expect(client.options('echo', { message: 'hi' })).resolves.toEqual({});
    await delivered(activities, 'answer');
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('client.subscribe'), failure);
  });
});
