import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotificationActions } from '../../src/components/notification-actions/notification-actions.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('NotificationActions', () => {
  it('renders https and app links with their title and description as text', async () => {
    const { container } = render(
      <NotificationActions
        title="<b>Export</b> ready"
        description="Your CSV is ready."
        actions={[
          { deeplink: 'https://example.com/exports/1', mobileDeeplink: 'myapp://exports/1' },
        ]}
      />,
    );
    expect(container.firstChild).toHaveAttribute('data-state', 'listed');
    expect(screen.getByText('<b>Export</b> ready')).toBeInTheDocument();
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByText('Your CSV is ready.')).toBeInTheDocument();
    const links = screen.getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Open example.com', 'https://example.com/exports/1'],
      ['Open in the app', 'myapp://exports/1'],
    ]);
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer');
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations).toEqual([]);
  });

  it('uses an action label for both links', () => {
    render(
      <NotificationActions
        actions={[
          { deeplink: 'https://example.com/a', mobileDeeplink: 'myapp://a', label: 'View export' },
        ]}
      />,
    );
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'View export',
      'View export in the app',
    ]);
  });

  it('renders a mobile link equal to the web link once', () => {
    render(
      <NotificationActions
        actions={[{ deeplink: 'https://example.com/a', mobileDeeplink: 'https://example.com/a' }]}
      />,
    );
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('never renders javascript:, data:, vbscript:, file:, blob: or http: links, whatever their case', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const dangerous = [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'blob:https://example.com/1',
      'http://example.com/',
      '/relative/path',
    ];
    const { container } = render(
      <NotificationActions
        emptyText="No links."
        actions={dangerous.map((link) => ({ deeplink: link, mobileDeeplink: link }))}
      />,
    );
    expect(screen.queryAllByRole('link')).toEqual([]);
    expect(container.querySelector('a')).toBeNull();
    expect(container.firstChild).toHaveAttribute('data-state', 'empty');
    expect(screen.getByText('No links.')).toBeInTheDocument();
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/`actions\[0\]\.deeplink`/));
  });

  it('refuses an app scheme as a web link but accepts it as a mobile link', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <NotificationActions actions={[{ deeplink: 'myapp://a', mobileDeeplink: 'myapp://b' }]} />,
    );
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      'myapp://b',
    ]);
  });

  it('renders nothing but its title when there are no actions', () => {
    const { container } = render(<NotificationActions title="Done" />);
    expect(container.firstChild).toHaveAttribute('data-state', 'empty');
    expect(container.firstChild).toHaveTextContent(/^Done$/);
  });

  it('forwards its ref and spreads other props', () => {
    const ref = createRef<HTMLDivElement>();
    render(<NotificationActions ref={ref} data-testid="note" className="mine" />);
    expect(ref.current).toBe(screen.getByTestId('note'));
    expect(ref.current).toHaveClass('taskwire-notification', 'mine');
  });
});
