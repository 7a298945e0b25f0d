/**
 * {@link TaskwireMessagesProvider}: the messages and locale of the components below it.
 * `TaskwireProvider` (src/react) renders one with its own `messages` and `locale` props.
 */
import { useContext, useMemo, type ReactNode } from 'react';
import type { Locale } from '../format.js';
import { LocalizationContext, type Localization } from './messages-context.js';
import type { TaskwireMessagesOverride } from './messages.js';

/** Props of {@link TaskwireMessagesProvider}. */
export interface TaskwireMessagesProviderProps {
  /**
   * Messages for the components below, whole (`de` from `taskwire/locales/de`) or in part; laid
   * over those of a provider above, which are laid over English. Defaults to none.
   */
  messages?: TaskwireMessagesOverride | undefined;
  /**
   * The locale the components below format figures and times in, unless one is given its own
   * `locale` prop. Defaults to the provider's above, else the user's.
   */
  locale?: Locale;
  /** The part of the app whose components use these messages. */
  children?: ReactNode;
}

/**
 * Gives the components below it their messages and locale. `TaskwireProvider` renders one with its
 * `messages` and `locale`; use this alone for components without a task client, or to change the
 * words of one part of a page.
 */
export function TaskwireMessagesProvider({
  messages,
  locale,
  children,
}: TaskwireMessagesProviderProps) {
  const outer = useContext(LocalizationContext);
  // The layers are only collected here; each component lays them over its own English groups, so
  // the provider (in every app's first bundle, through TaskwireProvider) holds no merging code.
  const value = useMemo<Localization>(
    () => ({
      layers: messages ? [...outer.layers, messages] : outer.layers,
      locale: locale ?? outer.locale,
    }),
    [outer, messages, locale],
  );
  return <LocalizationContext.Provider value={value}>{children}</LocalizationContext.Provider>;
}
