import { useEffect } from 'react';
import { loadStartPaths, loadStreamPath } from '../client/load-on-first-use.js';

function ignore(): void {}

/**
 * Loads the client's parts that load on first use (see `src/client/load-on-first-use.ts`) when the
 * component mounts, so that its first call does not wait for them. A failed load is tried again,
 * and reported, by that call.
 */
export function useStartPaths(withStream = false): void {
  useEffect(() => {
    loadStartPaths().catch(ignore);
    if (withStream) loadStreamPath().catch(ignore);
  }, [withStream]);
}
