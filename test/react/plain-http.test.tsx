/**
 * A page served over plain http from a LAN address (`http://192.168.…`) is not a secure context, so
 * its `crypto` has no `randomUUID`; everything the hooks send must still work there
 * (docs/protocol.md, "Idempotency").
 */
import { act, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSubmitTask } from '../../src/react/index.js';
import { renderHookWithTaskwire } from '../../src/testing/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// An own property shadows the prototype's method, as an insecure context leaves it out.
const removeRandomUuid = () =>
  Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
const restoreRandomUuid = () => delete (crypto as { randomUUID?: unknown }).randomUUID;

beforeEach(removeRandomUuid);

afterEach(async () => {
  restoreRandomUuid();
  await closeHookTestServices();
});

/**
 * The service runs elsewhere in real life, in a secure context of its own: it gets `randomUUID`
 * back while it serves a request (the hooks' keys are made before a request leaves).
 */
function servedElsewhere<Service extends { fetch(request: Request): Promise<Response> }>(
  service: Service,
): Service {
  let serving = 0;
  return {
    ...service,
    async fetch(request: Request) {
      serving += 1;
      restoreRandomUuid();
      try {
        return await service.fetch(request);
      } finally {
        serving -= 1;
        if (serving === 0) removeRandomUuid();
      }
    },
  };
}

describe('the hooks on a plain-http origin (no crypto.randomUUID)', () => {
  it('submits through useSubmitTask, each call under an idempotency key of its own', async () => {
    expect(crypto.randomUUID).toBeUndefined();
    const { options, service } = hookTestService();
    const { result, client } = renderHookWithTaskwire(() => useSubmitTask('echo'), {
      ...options,
      service: servedElsewhere(options.service),
    });
    let first: Promise<{ id: string }> | undefined;
    act(() => {
      first = result.current.mutateAsync({ params: { message: 'one' } });
    });
    const answer = await first;
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    act(() => result.current.mutate({ params: { message: 'two' } }));
    await waitFor(() => expect(result.current.data?.id).not.toBe(answer?.id));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));

    const keys = service.requests
      .filter((request) => request.endpoint === 'submit')
      .map((request) => request.idempotencyKey);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(UUID_V4);
    expect(keys[0]).not.toBe(keys[1]);
    const record = await client.getResult('echo', result.current.data?.id ?? '');
    expect(record.id).toBe(result.current.data?.id);
  });
});
