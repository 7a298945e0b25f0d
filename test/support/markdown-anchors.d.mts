/** The anchors of `markdown`'s headings as GitHub makes them (lower case, punctuation dropped, `-1` after repeats). */
export declare function headingAnchorsOf(markdown: string): Set<string>;
/** Every link of `markdown` outside code that is neither a URL with a scheme nor a mail address. */
export declare function relativeLinksOf(markdown: string): { target: string; anchor?: string }[];
