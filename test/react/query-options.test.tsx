import { QueryClient } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import { taskwireKeys, useTaskOptions, useTaskResult } from '../../src/react/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  OTHER_USER_TOKEN,
} from '../../src/reference/index.js';
import { renderHookWithTaskwire } from '../../src/testing/index.js';

const service = createReferenceService({ timeScale: 0.01 });
const queryClient = new QueryClient();
afterEach(() => queryClient.clear());

/**
 * A client of one user on the shared service, counting its requests, and the options that render
 * a hook with it on the shared QueryClient.
 */
function clientOf(userToken: string, scope?: string) {
  const requests: string[] = [];
  const client = createTaskClient({
    baseUrl: 'http://taskwire.test',
    userToken,
    clientToken: DEMO_CLIENT_TOKEN,
    ...(scope === undefined ? {} : { scope }),
    fetch: (request) => {
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      return service.fetch(request);
    },
  });
  return { client, requests, options: { service, client, queryClient } };
}

describe('query keys', () => {
  it('put the client’s scope in every key, its baseUrl by default', () => {
    expect(clientOf(DEMO_USER_TOKEN).client.scope).toBe('http://taskwire.test');
    expect(clientOf(DEMO_USER_TOKEN, 'user-1').client.scope).toBe('user-1');
    expect(taskwireKeys.result('user-1', 'echo', 'id-1')).toEqual([
      'taskwire',
      'user-1',
      'result',
      'echo',
      'id-1',
    ]);
    expect(taskwireKeys.scope('user-1')).toEqual(
      taskwireKeys.result('user-1', 'a', 'b').slice(0, 2),
    );
  });

  it('keep one user’s record from another user on the same QueryClient', async () => {
    const mine = clientOf(DEMO_USER_TOKEN, 'demo-user');
    const theirs = clientOf(OTHER_USER_TOKEN, 'other-user');
    const { id } = await mine.client.submit('echo', { message: 'mine' });
    const own = renderHookWithTaskwire(() => useTaskResult('echo', id), mine.options);
    await waitFor(() => expect(own.result.current.data?.status).toBe('COMPLETED'));
    const other = renderHookWithTaskwire(() => useTaskResult('echo', id), theirs.options);
    await waitFor(() => expect(other.result.current.status).toBe('error'));
    expect(other.result.current.data).toBeUndefined();
    expect(other.result.current.error?.reason).toBe('RESULT_NOT_FOUND');
    expect(theirs.requests).toEqual([`GET /workflows/echo/${id}/result`]);
  });

  it('ask each client for its own quote', async () => {
    const first = clientOf(DEMO_USER_TOKEN, 'service-a');
    const second = clientOf(DEMO_USER_TOKEN, 'service-b');
    const params = { prompt: 'a cat', count: 2 };
    const a = renderHookWithTaskwire(
      () => useTaskOptions('generate-images', params),
      first.options,
    );
    await waitFor(() => expect(a.result.current.isSuccess).toBe(true));
    const b = renderHookWithTaskwire(
      () => useTaskOptions('generate-images', params),
      second.options,
    );
    await waitFor(() => expect(b.result.current.isSuccess).toBe(true));
    expect(first.requests).toEqual(['POST /workflows/generate-images/options']);
    expect(second.requests).toEqual(['POST /workflows/generate-images/options']);
  });
});
