import { describe, expect, it } from 'vitest';
import type { ReferenceService } from '../../src/reference/index.js';
import { post, waitForEnd } from './service-requests.js';
import { openService } from './open-service.js';

async function submitWith(
  service: ReferenceService,
  notification: unknown,
  task = 'export-data',
  params: unknown = { format: 'csv' },
) {
  return post(service, `/workflows/${task}/submit`, { params, notification });
}

describe('notifications', () => {
  it('sends one notification to the sink and the callback when a notifying task completes', async () => {
    const received: unknown[] = [];
    const service = openService({
      timeScale: 0.001,
      onNotification: (item) => void received.push(item),
    });
    const response = await submitWith(service, {
      enabled: true,
      data: { title: 'Export ready', description: 'Your CSV is ready.' },
      actions: [{ deeplink: 'https://app.example.com/exports', mobileDeeplink: 'myapp://exports' }],
    });
    expect(response.status).toBe(202);
    const { response: answer } = (await response.json()) as { response: { id: string } };
    await waitForEnd(service, 'export-data', answer.id);
    const expected = {
      taskId: answer.id,
      task: 'export-data',
      title: 'Export ready',
      description: 'Your CSV is ready.',
      actions: [{ deeplink: 'https://app.example.com/exports', mobileDeeplink: 'myapp://exports' }],
    };
    expect(service.notifications).toEqual([expected]);
    expect(received).toEqual([expected]);
  });

  it('uses a default title and description when the Submit gives none', async () => {
    const service = openService({ timeScale: 0.001 });
    const response = await submitWith(service, { enabled: true });
    const { response: answer } = (await response.json()) as { response: { id: string } };
    await waitForEnd(service, 'export-data', answer.id);
    expect(service.notifications).toHaveLength(1);
    expect(service.notifications[0]?.title).toContain('export-data');
    expect(service.notifications[0]?.description.length).toBeGreaterThan(0);
    expect(service.notifications[0]?.actions).toEqual([]);
  });

  it('sends nothing without enabled: true, or for a task that does not notify', async () => {
    const service = openService({ timeScale: 0.001 });
    const ids: Array<[string, string]> = [];
    for (const [task, params, notification] of [
      ['export-data', { format: 'csv' }, undefined],
      ['export-data', { format: 'json' }, { enabled: false }],
      ['export-data', { format: 'json' }, { data: { title: 'x' } }],
      ['echo', { message: 'x' }, { enabled: true }],
    ] as const) {
      const response = await submitWith(service, notification, task, params);
      expect(response.status).toBe(202);
      ids.push([task, ((await response.json()) as { response: { id: string } }).response.id]);
    }
    for (const [task, id] of ids) await waitForEnd(service, task, id);
    expect(service.notifications).toEqual([]);
  });

  it('keeps the service working when the callback throws', async () => {
    const service = openService({
      timeScale: 0.001,
      onNotification: () => {
        throw new Error('sink down');
      },
    });
    const response = await submitWith(service, { enabled: true });
    const { response: answer } = (await response.json()) as { response: { id: string } };
    expect((await waitForEnd(service, 'export-data', answer.id)).status).toBe('COMPLETED');
    expect(service.notifications).toHaveLength(1);
  });

  it('refuses dangerous or malformed links with 422 INVALID_NOTIFICATION, creating no task', async () => {
    const service = openService({ timeScale: 0.001 });
    const refused: unknown[] = [
      { actions: [{ deeplink: 'javascript:alert(1)' }] },
      { actions: [{ deeplink: 'JavaScript:alert(1)' }] },
      { actions: [{ deeplink: '  javascript:alert(1)' }] },
      { actions: [{ deeplink: '\tjava\nscript:alert(1)' }] },
      { actions: [{ deeplink: 'http://example.com' }] },
      { actions: [{ deeplink: 'myapp://open' }] },
      { actions: [{ deeplink: '/relative' }] },
      { actions: [{ mobileDeeplink: 'data:text/html,<script>alert(1)</script>' }] },
      { actions: [{ mobileDeeplink: 'vbscript:msgbox' }] },
      { actions: [{ mobileDeeplink: 'FILE:///etc/passwd' }] },
      { actions: [{ mobileDeeplink: 'blob:https://example.com/x' }] },
      { actions: [{ mobileDeeplink: ' HTTP://example.com ' }] },
      { actions: [{}] },
      { actions: [{ deeplink: 42 }] },
      { actions: 'https://example.com' },
      { enabled: 'yes' },
      { data: { title: 7 } },
      'notify me',
      [],
    ];
    for (const notification of refused) {
      const response = await submitWith(service, notification);
      expect(response.status, JSON.stringify(notification)).toBe(422);
      expect(((await response.json()) as { reason: string }).reason).toBe('INVALID_NOTIFICATION');
    }
    const accepted = await submitWith(service, {
      enabled: true,
      actions: [{ deeplink: 'HTTPS://example.com/a' }, { mobileDeeplink: 'my-app+x.y:open' }],
    });
    expect(accepted.status).toBe(202);
    // `null` reads as no notification.
    expect((await submitWith(service, null)).status).toBe(202);
  });
});
