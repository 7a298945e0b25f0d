/**
 * The components' messages and locale from context: each component merges what the
 * providers above give (messages-provider.tsx) with its own English defaults and its `messages`
 * prop. The context lives here, not in src/react, because components never import the hooks' layer
 * (CONTRIBUTING.md, "Layout of the house"); the provider is a module of its own so that a
 * component's bundle holds only this reading side.
 */
import { createContext, useContext } from 'react';
import type { Locale } from '../format.js';
import type {
  TaskwireMessageGroup,
  TaskwireMessages,
  TaskwireMessagesOverride,
} from './messages.js';

/** What the providers above a component give it. */
export interface Localization {
  /** The providers' messages, outermost first, each laid over the one before. */
  layers: readonly TaskwireMessagesOverride[];
  /** The innermost locale given, if any. */
  locale: Locale;
}

/** Outside any provider: English (each component's defaults) in the user's locale. */
export const LocalizationContext = /* @__PURE__ */ createContext<Localization>({
  layers: [],
  locale: undefined,
});

/**
 * A component's messages and locale: its English `defaults` (only the groups it reads, so its
 * bundle holds no other component's words), under the providers' messages, under its own
 * `messages` prop; its `locale` prop, else the providers', else the user's (`undefined`).
 */
export function useMessages<Groups extends Partial<TaskwireMessages>>(
  defaults: Groups,
  override: TaskwireMessagesOverride | undefined,
  locale?: Locale,
): { messages: Groups; locale: Locale } {
  const provided = useContext(LocalizationContext);
  const layers = [...provided.layers, override];
  // Merged on every render rather than memoised: a few small objects cost less than the memo's
  // bookkeeping, and a `messages` prop written inline would defeat a memo anyway.
  const messages: Record<string, Record<string, unknown>> = {};
  for (const group in defaults) {
    const merged: Record<string, unknown> = { ...(defaults[group] as object) };
    for (const layer of layers) {
      const given: Record<string, unknown> | undefined = layer?.[group as TaskwireMessageGroup];
      // A message left out, or given as `undefined`, keeps the text below it.
      for (const key in given) if (given[key] !== undefined) merged[key] = given[key];
    }
    messages[group] = merged;
  }
  return { messages: messages as unknown as Groups, locale: locale ?? provided.locale };
}
