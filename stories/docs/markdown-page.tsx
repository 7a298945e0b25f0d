import { Markdown } from '@storybook/addon-docs/blocks';
import { joinWrappedCodeSpans } from './join-wrapped-code-spans.js';

/** A page of Markdown (docs/protocol.md, a generated API reference page) as a docs page shows it. */
export function MarkdownPage({ markdown }: { markdown: string }) {
  return <Markdown>{joinWrappedCodeSpans(markdown)}</Markdown>;
}
