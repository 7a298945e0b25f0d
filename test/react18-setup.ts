// Setup of the React 18 run (vitest.react18.config.ts). Fails every test file at once when the
// aliases did not take and React 19 was loaded instead, so that run can never pass on 19 by
// accident; records the versions in the file's meta, from which the run prints what ran.
import { version as reactVersion } from 'react';
import { version as reactDomVersion } from 'react-dom';
import { beforeAll } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** The `react` and `react-dom` versions the test file ran on (React 18 run only). */
    reactVersions?: { react: string; reactDom: string };
  }
}

if (!reactVersion.startsWith('18.') || !reactDomVersion.startsWith('18.')) {
  throw new Error(
    `The React 18 run loaded react ${reactVersion} and react-dom ${reactDomVersion}; ` +
      'vitest.react18.config.ts must resolve both to 18.',
  );
}

// Vitest 4 passes the file second, after a fixture context that it insists is destructured.
// eslint-disable-next-line no-empty-pattern
beforeAll(({}, file) => {
  file.meta.reactVersions = { react: reactVersion, reactDom: reactDomVersion };
});
