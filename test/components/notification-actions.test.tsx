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
        appSchemes={['myapp']}
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
        appSchemes={['myapp']}
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

  it('refuses an app scheme as a web link but accepts it as a mobile link once listed', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <NotificationActions
        actions={[{ deeplink: 'myapp://a', mobileDeeplink: 'myapp://b' }]}
        appSchemes={['myapp']}
      />,
    );
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      'myapp://b',
    ]);
  });

  it('renders no app link by default, only https ones', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container } = render(
      <NotificationActions
        emptyText="No links."
        actions={[
          { mobileDeeplink: 'myapp://exports/1' },
          { mobileDeeplink: 'https://example.com/exports/1', label: 'View' },
        ]}
      />,
    );
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      'https://example.com/exports/1',
    ]);
    expect(container).not.toHaveTextContent('myapp');
    expect(error).toHaveBeenCalledWith(
      expect.stringMatching(/`actions\[0\]\.mobileDeeplink`.*appSchemes/),
    );
  });

  it('never renders an app scheme the app did not list: ms-msdt:, search-ms:, intent:', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const unlisted = [
      'ms-msdt:/id PCWDiagnostic /skip force',
      'search-ms:query=invoice&crumb=location:\\\\attacker\\share',
      'intent://scan/#Intent;scheme=zxing;package=com.example;end',
      'otherapp://exports/1',
    ];
    const { container } = render(
      <NotificationActions
        emptyText="No links."
        appSchemes={['myapp']}
        actions={unlisted.map((link) => ({ mobileDeeplink: link }))}
      />,
    );
    expect(container.querySelector('a')).toBeNull();
    expect(container.firstChild).toHaveAttribute('data-state', 'empty');
    expect(screen.getByText('No links.')).toBeInTheDocument();
  });

  it('takes listed schemes with or without the colon, in any case', () => {
    const links = [
      { mobileDeeplink: 'myapp://a' },
      { mobileDeeplink: 'MyApp://b' },
      { mobileDeeplink: 'other+app:c' },
    ];
    const { rerender } = render(
      <NotificationActions actions={links} appSchemes={['MYAPP:', 'Other+App']} />,
    );
    const hrefs = () => screen.queryAllByRole('link').map((link) => link.getAttribute('href'));
    expect(hrefs()).toEqual(['myapp://a', 'MyApp://b', 'other+app:c']);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    rerender(<NotificationActions actions={links} appSchemes={['myapp']} />);
    expect(hrefs()).toEqual(['myapp://a', 'MyApp://b']);
    expect(error).toHaveBeenCalledWith(
      expect.stringMatching(/`actions\[2\]\.mobileDeeplink` of value `'other\+app:c'`/),
    );
  });

  it('reports a listed entry that is no scheme, and lists nothing for it', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container } = render(
      <NotificationActions
        actions={[{ mobileDeeplink: 'myapp://a' }]}
        appSchemes={['myapp://', 'my app', ' ']}
      />,
    );
    expect(container.querySelector('a')).toBeNull();
    const messages = error.mock.calls.map((call) => String(call[0]));
    for (const index of [0, 1, 2]) {
      expect(messages.some((message) => message.includes(`\`appSchemes[${index}]\``))).toBe(true);
    }
  });

  it('never renders javascript:, data:, vbscript:, file:, blob: or http: links, even when listed', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const listed = ['javascript', 'data:', 'VBScript', 'file', 'blob', 'http'];
    const { container } = render(
      <NotificationActions
        appSchemes={listed}
        actions={[
          { mobileDeeplink: 'javascript:alert(1)' },
          { mobileDeeplink: 'data:text/html,<script>alert(1)</script>' },
          { mobileDeeplink: 'vbscript:msgbox(1)' },
          { mobileDeeplink: 'file:///etc/passwd' },
          { mobileDeeplink: 'blob:https://example.com/1' },
          { mobileDeeplink: 'http://example.com/' },
        ]}
      />,
    );
    expect(container.querySelector('a')).toBeNull();
    expect(error).toHaveBeenCalledWith(
      expect.stringMatching(/`appSchemes\[0\]` of value `'javascript'`/),
    );
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
