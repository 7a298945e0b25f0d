/**
 * A story `beforeEach` for a story that shows a component refusing props on purpose: the
 * development warnings matching `pattern` (the component saying what it refused) stay out of the
 * console, where they would read as a fault of the story, and every other message passes through.
 */
export function quietExpectedWarnings(pattern: RegExp): () => () => void {
  return () => {
    const original = console.error;
    console.error = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && pattern.test(args[0])) return;
      original(...args);
    };
    return () => {
      console.error = original;
    };
  };
}
