/**
 * A service whose answers to one endpoint wait while the test holds them: "while the new quote is
 * on its way" becomes a state the test controls, not a window of time. Requests still arrive (a
 * `recordRequests` around it sees them); only their answers wait.
 */
import type { Endpoint } from '../../src/protocol/match-route.js';
import { replaceFetch, routeOf, type FetchService } from '../../src/testing/fetch-service.js';

/** `service` with its answers to `endpoint` held from `hold()` until `release()`. */
export function holdAnswers<Service extends FetchService>(service: Service, endpoint: Endpoint) {
  let gate: { opened: Promise<void>; open: () => void } | undefined;
  const fetch = async (request: Request) => {
    const held = routeOf(request)?.endpoint === endpoint ? gate : undefined;
    if (held) await held.opened;
    return service.fetch(request);
  };
  return {
    service: replaceFetch(service, fetch, {}),
    /** Holds every answer to `endpoint` from now on. */
    hold() {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      gate = { opened, open };
    },
    /** Lets the held answers, and every later one, go. */
    release() {
      gate?.open();
      gate = undefined;
    },
  };
}
