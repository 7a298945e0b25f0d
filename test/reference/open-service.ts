/**
 * A fresh reference service per test, closed when that test ends (passed or failed), so that no
 * task, timer or open stream of one test outlives it into the next.
 */
import { onTestFinished } from 'vitest';
import {
  createReferenceService,
  type ReferenceService,
  type ReferenceServiceConfig,
} from '../../src/reference/index.js';

/** Creates a reference service with `config` and closes it when the current test finishes. */
export function openService(config?: ReferenceServiceConfig): ReferenceService {
  const service = createReferenceService(config);
  onTestFinished(() => service.close());
  return service;
}
