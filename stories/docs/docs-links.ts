/**
 * The guides and reference pages are Markdown files in docs/ (shipped in the package); each has a
 * thin .mdx page here that shows it under the title below. Their links are relative, so they
 * resolve inside the installed package: `./hooks.md#anchor` to another page, `../dist/….d.ts` to
 * the declarations an entry ships (the API reference as the package holds it). In this Storybook
 * the same links go to the page of that title, or to the entry's page under "Reference/API".
 */

/** The Storybook title of every page of docs/, by its file name. */
export const docsPageTitles: Readonly<Record<string, string>> = {
  'introduction.md': 'Introduction',
  'hooks.md': 'Guides/Hooks',
  'tasks-that-outlive-the-page.md': 'Guides/Tasks that outlive the page',
  'resume-after-reload.md': 'Guides/Resume after reload',
  'streams-that-survive.md': 'Guides/Streams that survive',
  'components.md': 'Guides/Components',
  'typed-tasks.md': 'Guides/Typed tasks',
  'server-rendering.md': 'Guides/Server rendering',
  'vue.md': 'Guides/Vue',
  'the-client.md': 'Guides/The client',
  'errors.md': 'Guides/Errors',
  'the-reference-service.md': 'Guides/The reference service',
  'openapi.md': 'Guides/OpenAPI document',
  'testing-your-components.md': 'Guides/Testing your components',
  'translating.md': 'Guides/Translating and right-to-left',
  'devtools.md': 'Guides/Devtools and the activity feed',
  'your-own-service.md': 'Guides/Your own service',
  'troubleshooting.md': 'Guides/Troubleshooting',
  'checking-your-service.md': 'Guides/Checking your service',
  'reference-service-endpoints.md': 'Reference/The reference service',
  'interface-gaps.md': 'Reference/Where the interface document is silent',
  'bundle-size.md': 'Reference/Bundle size',
  'protocol.md': 'Reference/Wire protocol',
};

/** Storybook's id of a docs page: its title and name, lower case, runs of other characters as `-`. */
export function docsIdOf(title: string, name = 'Docs'): string {
  const sanitize = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
  return `${sanitize(title)}--${sanitize(name)}`;
}

/**
 * Where a link of a page of docs/ goes in this Storybook: `./hooks.md#x` to that page's id,
 * `../dist/client/index.d.ts#x` to the API reference page of `taskwire/client`; any other link
 * (a heading of the same page, a public URL) as it is.
 */
export function storybookHrefOf(href: string): string {
  const [target = '', anchor] = href.split('#', 2);
  const hash = anchor === undefined ? '' : `#${anchor}`;
  const page = /^\.\/([^/]+\.md)$/.exec(target)?.[1];
  const title = page === undefined ? undefined : docsPageTitles[page];
  if (title !== undefined) return `?path=/docs/${docsIdOf(title)}${hash}`;
  const entry = /^\.\.\/dist\/(?:(.+)\/)?index\.d\.ts$/.exec(target);
  if (entry) {
    const specifier = entry[1] === undefined ? 'taskwire' : `taskwire/${entry[1]}`;
    return `?path=/docs/${docsIdOf('Reference/API', specifier)}${hash}`;
  }
  return href;
}

/** `markdown` with every relative link of a docs page rewritten by `storybookHrefOf`. */
export function withStorybookLinks(markdown: string): string {
  return markdown.replace(
    /\]\(([^)\s]+)\)/g,
    (_link, href: string) => `](${storybookHrefOf(href)})`,
  );
}
