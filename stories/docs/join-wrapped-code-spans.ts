/**
 * `markdown` with every inline code span on one line. Storybook's Markdown block shows a code span
 * that holds a line break as a code block, which may not sit inside a paragraph (React reports it
 * as an error), and prose wrapped at 100 columns breaks some spans over two lines. Fenced blocks are
 * left as they are.
 */
export function joinWrappedCodeSpans(markdown: string): string {
  const parts = markdown.split(/^(```[\s\S]*?^```)$/m);
  return parts
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (span) => span.replace(/\s*\n\s*/g, ' ')),
    )
    .join('');
}
