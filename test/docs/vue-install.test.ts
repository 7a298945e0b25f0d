/**
 * The Vue install line (README's "Vue", docs/vue.md) names packages that taskwire does not list as
 * peers, `@tanstack/vue-query` among them: listed as a peer, npm walked its optional peers and
 * refused to install taskwire into a React app (CHANGELOG, 0.4). Each page that installs one says
 * that it is not a peer, so that an app knows to install it itself.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installedBy, sectionOf } from './markdown-links.js';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const manifest = JSON.parse(read('package.json')) as { peerDependencies?: Record<string, string> };
const peers = Object.keys(manifest.peerDependencies ?? {});

const pages = [
  { file: 'README.md', text: sectionOf(read('README.md'), 'Vue') },
  { file: 'docs/vue.md', text: read('docs/vue.md') },
];

describe('the Vue install line', () => {
  it.each(pages)(
    'says in $file that the packages it adds beside the peers are not peers',
    ({ text }) => {
      const notPeers = [...installedBy(text)].filter(
        (name) => name !== 'taskwire' && !peers.includes(name),
      );
      expect(notPeers).toContain('@tanstack/vue-query');
      const folded = text.replace(/\s+/g, ' ');
      for (const name of notPeers) {
        // The name, then within its sentence "not a peer" or "not listed as a peer".
        const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
        expect(
          folded,
          `${name} is on the install line, but the page does not say it is not a peer`,
        ).toMatch(new RegExp(`\`${escaped}\`[^.]*\\bnot (?:listed as )?a peer`));
      }
    },
  );
});
