/**
 * The notification samples of the docs send what the interface document's notification request
 * holds: each action with both `deeplink` and `mobileDeeplink` (docs/protocol.md, "Notifications"),
 * since a service that requires both refuses an action with one (the reference service takes either).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const pages = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

/** The object literals of `text`'s fenced code blocks that name a link of an action. */
function actionsOf(text: string): string[] {
  const blocks = [...text.matchAll(/```\w*\n([\s\S]*?)```/g)].map(([, code = '']) => code);
  return blocks.flatMap((code) =>
    [...code.matchAll(/\{[^{}]*\b(?:deeplink|mobileDeeplink)\b[^{}]*\}/g)].map(
      ([action]) => action,
    ),
  );
}

describe('the notification samples of the docs', () => {
  it('give every action both a deeplink and a mobileDeeplink', () => {
    const actions = pages.flatMap((page) =>
      actionsOf(readFileSync(path.join(root, page), 'utf8')).map((action) => ({ page, action })),
    );
    expect(actions.length).toBeGreaterThan(1);
    const short = actions.filter(
      ({ action }) => !/\bdeeplink"?\s*:/.test(action) || !/\bmobileDeeplink"?\s*:/.test(action),
    );
    expect(short).toEqual([]);
  });
});
