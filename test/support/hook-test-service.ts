/**
 * The service the converted hook tests use, built only from `taskwire/testing` as an app's tests
 * would: the reference service (demo tasks, at 1/100 of their time unless `timeScale` says
 * otherwise), `faults` in front of it, and the requests recorded before the faults (`served`) and
 * after them (`service`, every request the client sent). The options
 * hand the hooks' default client the demo schemas, as the app's own client would have.
 */
import {
  createReferenceService,
  demoTaskSchemas,
  type ReferenceService,
  type ReferenceServiceConfig,
} from '../../src/reference/index.js';
import {
  recordRequests,
  withFaults,
  type Fault,
  type RecordedRequest,
} from '../../src/testing/index.js';

const opened: ReferenceService[] = [];

/** A recorded, faulted reference service and the options of `renderHookWithTaskwire` on it. */
export function hookTestService({
  faults = [],
  ...config
}: ReferenceServiceConfig & { faults?: Fault[] } = {}) {
  const reference = createReferenceService({ timeScale: 0.01, ...config });
  opened.push(reference);
  // Recorded on both sides of the faults: what the service served, and what the client was given.
  const served = recordRequests(reference);
  const service = recordRequests(withFaults(served, faults));
  return {
    service,
    served,
    options: { service, clientConfig: { tasks: demoTaskSchemas } },
    /** How many requests of `endpoint` the client sent so far. */
    count: (endpoint: NonNullable<RecordedRequest['endpoint']>) =>
      service.requests.filter((request) => request.endpoint === endpoint).length,
  };
}

/** Closes every service `hookTestService` made; for `afterEach`. */
export async function closeHookTestServices(): Promise<void> {
  await Promise.all(opened.splice(0).map((service) => service.close()));
}
