import type { Application, ProjectReflection, Reflection } from 'typedoc';

/** One public entry of package.json's `exports`. */
export interface ApiEntry {
  /** The import specifier, such as `taskwire/client`. */
  specifier: string;
  /** The source file of the entry, relative to the root. */
  file: string;
}
/** The Storybook title every reference page shares; each page's name is its entry's specifier. */
export declare const REFERENCE_TITLE: string;
/** `taskwire/reference/node` as a file name and a Storybook id part: `taskwire-reference-node`. */
export declare function slugOf(specifier: string): string;
/** The docs id Storybook gives the page named `specifier` under REFERENCE_TITLE. */
export declare function docsIdOf(specifier: string): string;
/** The JavaScript entries of package.json's `exports`, `taskwire` last. */
export declare function readApiEntries(root: string): ApiEntry[];
/** Converts the entries with typedoc.json's options, each module named by its specifier. */
export declare function convertApiReference(
  root: string,
  overrides?: Record<string, unknown>,
): Promise<{ app: Application; project: ProjectReflection | undefined; entries: ApiEntry[] }>;
/** The doc comment a reader sees for a reflection (a function's signature's, a re-export's target's). */
export declare function documentationOf(reflection: Reflection): string;
