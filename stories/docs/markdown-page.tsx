import { Canvas, Markdown } from '@storybook/addon-docs/blocks';
import { Fragment } from 'react';
import { withStorybookLinks } from './docs-links.js';
import { joinWrappedCodeSpans } from './join-wrapped-code-spans.js';

/** The stories a page may show, by the name its .mdx page imports them under. */
type StoryModules = Record<string, Record<string, unknown>>;

/**
 * A page of Markdown (a guide of docs/, docs/protocol.md, a generated API reference page) as a
 * docs page shows it. A line `<!-- story: Flows.Execute -->` in the Markdown (invisible wherever
 * else it is read) shows that story live here, from the `stories` the .mdx page imports; the
 * other comments (`<!-- code: PATH -->`, which the docs tests check) show nothing.
 */
export function MarkdownPage({
  markdown,
  stories = {},
}: {
  markdown: string;
  stories?: StoryModules;
}) {
  const parts = withStorybookLinks(joinWrappedCodeSpans(markdown)).split(
    /^<!-- story: (\w+)\.(\w+) -->$/m,
  );
  return (
    <>
      {parts.map((part, index) => {
        if (index % 3 === 0) {
          const text = part.replace(/^<!--[\s\S]*?-->\n?/gm, '');
          return <Markdown key={index}>{text}</Markdown>;
        }
        if (index % 3 === 2) return null;
        const module = stories[part];
        const name = parts[index + 1] ?? '';
        const story = module?.[name];
        if (story === undefined) throw new Error(`The page shows ${part}.${name}, not imported.`);
        return (
          <Fragment key={index}>
            <Canvas of={story as never} />
          </Fragment>
        );
      })}
    </>
  );
}
