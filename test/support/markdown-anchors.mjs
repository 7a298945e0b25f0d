// Reading a Markdown page's headings and links as GitHub and npm show them: shared by the docs
// tests (test/docs/) and the consumer test's check of the unpacked package, which runs in plain
// Node without a TypeScript loader (hence JavaScript, typed by markdown-anchors.d.mts).

/** The anchors of `markdown`'s headings as GitHub makes them (lower case, punctuation dropped, `-1` after repeats). */
export function headingAnchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6} (.*)$/.exec(line);
    if (!heading?.[1]) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every link of `markdown` outside code that is neither a URL with a scheme nor a mail address. */
export function relativeLinksOf(markdown) {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, href = '']) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return [];
    const [target = '', anchor] = href.split('#', 2);
    return [anchor === undefined ? { target } : { target, anchor }];
  });
}
