/**
 * The paths of the wire (docs/protocol.md, "Paths and names"), written once in
 * src/protocol/match-route.ts: every path the client, taskwire-check, the reference service's
 * `Location` and the proxy build is read back by the router as the endpoint, name and id it was
 * built from.
 */
import { describe, expect, it } from 'vitest';
import {
  matchEventsRoute,
  matchRoute,
  pathOfSegments,
  taskPath,
  type Endpoint,
} from '../../src/protocol/match-route.js';

const ENDPOINTS: readonly Endpoint[] = ['submit', 'result', 'stream', 'execute', 'options'];

describe('taskPath', () => {
  it('builds each endpoint’s path, which the router reads back, whatever the id holds', () => {
    for (const endpoint of ENDPOINTS) {
      for (const taskId of endpoint === 'result' ? ['t1', 'a/b?c#d e%', '...'] : ['']) {
        const path = taskPath(endpoint, 'render-video', taskId);
        expect(matchRoute(`/api${path}`, '/api')).toEqual({
          endpoint,
          taskName: 'render-video',
          taskId,
        });
      }
    }
    expect(taskPath('submit', 'echo')).toBe('/workflows/echo/submit');
    expect(taskPath('result', 'echo', 'a/b')).toBe('/workflows/echo/a%2Fb/result');
  });

  it('builds the events read’s path, which the router reads back', () => {
    const path = taskPath('events', 'echo', 'a/b');
    expect(path).toBe('/workflows/echo/a%2Fb/events');
    expect(matchEventsRoute(path, '')).toEqual({ read: 'events', taskName: 'echo', taskId: 'a/b' });
  });

  it('writes the OpenAPI document’s templates from the same segments', () => {
    expect(pathOfSegments('result', '{task}', '{id}')).toBe('/workflows/{task}/{id}/result');
    expect(pathOfSegments('options', '{task}', '{id}')).toBe('/workflows/{task}/options');
  });
});
