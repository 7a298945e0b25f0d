/**
 * The devtools panel in jsdom, driven by Testing Library's user-event
 * (test/devtools/devtools-cases.tsx holds the tests both environments share).
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { TaskwireDevtools } from '../../src/devtools/index.js';
import { describeDevtools, freshClient } from './devtools-cases.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describeDevtools(
  'TaskwireDevtools',
  () => userEvent.setup(),
  () => {
    // jsdom only: in the browser the bundler has already replaced `process.env.NODE_ENV`.
    it('renders nothing and records nothing when NODE_ENV is production', async () => {
      vi.stubEnv('NODE_ENV', 'production');
      const client = freshClient();
      const subscribe = vi.spyOn(client, 'subscribe');
      const { container } = render(<TaskwireDevtools client={client} />);
      await client.options('echo', { message: 'hi' });
      expect(container).toBeEmptyDOMElement();
      expect(subscribe).not.toHaveBeenCalled();
    });
  },
);
