/**
 * The client's part of the stream budget (docs/protocol.md, "The stream budget"): it only carries
 * `maxOpenStreams`, which useTaskStream's controller keeps (test/react/use-task-stream-budget.test.tsx),
 * so a bad value is refused where it is given, when the client is made.
 */
import { expect, it } from 'vitest';
import { createTaskClient, type TaskClientConfig } from '../../src/client/index.js';
import { DEMO_CLIENT_TOKEN, DEMO_USER_TOKEN } from '../../src/reference/index.js';

/** A client of an address nothing is sent to: the check runs when it is made. */
const clientOf = (config: Partial<TaskClientConfig>) =>
  createTaskClient({
    baseUrl: 'http://taskwire.test',
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    ...config,
  });

it('refuses a maxOpenStreams that is not a whole number of at least 1', () => {
  for (const maxOpenStreams of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    expect(() => clientOf({ maxOpenStreams })).toThrow(TypeError);
  }
  expect(clientOf({ maxOpenStreams: 6 }).maxOpenStreams).toBe(6);
  expect(clientOf({}).maxOpenStreams).toBe(4);
});
