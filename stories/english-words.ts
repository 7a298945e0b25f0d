/**
 * The words of the English messages, and a search for them in rendered components: how the German
 * stories and test/components/messages.test.tsx prove that no English is left. The list is derived
 * from `englishMessages` itself (every string, and every function called with sample values), so a
 * message added in English is looked for at once, and a function added without samples here fails
 * to compile.
 */
import { englishMessages, type TaskwireMessages } from '../src/components/index.js';

type MessageFunction = (...args: never[]) => string;

/** The names of the function messages of one group. */
type FunctionNames<Group> = {
  [Name in keyof Group]: Group[Name] extends MessageFunction ? Name : never;
}[keyof Group];

/** For every function message, the argument lists to call it with. */
type SampleArguments = {
  [Group in keyof TaskwireMessages]: {
    [Name in FunctionNames<TaskwireMessages[Group]>]: TaskwireMessages[Group][Name] extends (
      ...args: infer Parameters
    ) => string
      ? readonly Parameters[]
      : never;
  };
};

// Placeholders without letters, so that only the messages' own words are collected; counts of one
// and of more, so both plural forms are.
const both: [number, string][] = [
  [1, '1'],
  [12, '12'],
];

/** Sample values for every function message of {@link TaskwireMessages}. */
export const sampleArguments: SampleArguments = {
  status: {},
  credits: { credits: both },
  tools: {},
  timeLeft: {
    secondsShort: both,
    secondsLong: both,
    minutesShort: both,
    minutesLong: both,
    hoursShort: both,
    hoursLong: both,
  },
  taskProgress: {
    percent: both,
    ongoing: [['#']],
    joined: [['#', '#']],
    failedBecause: [['#', '#']],
    named: [['#', '#']],
  },
  creditCostPreview: { overBudget: [['#']] },
  usageBreakdown: {
    totalMismatch: [['#', '#']],
    rowMismatch: [['#', '#', '#']],
    chargedAsQuoted: [['#']],
    quotedAndCharged: [['#', '#']],
  },
  taskEventList: { field: [['#', '#']] },
  notificationActions: { openWeb: [['#']], labelInApp: [['#']] },
  errors: { http: [['#'], [undefined]], refused: [['#'], [undefined]] },
  taskList: {
    done: both,
    started: [
      ['#', true],
      ['#', false],
    ],
    dismissLabel: [
      ['#', '#', true],
      ['#', '#', false],
    ],
    readFailed: [[404], [410], [401], [500], [undefined]],
  },
};

/** Every text `messages` produces: its strings, and its functions called with the samples. */
export function messageTexts(messages: TaskwireMessages): string[] {
  const texts: string[] = [];
  for (const [group, entries] of Object.entries(messages)) {
    const samples = sampleArguments[group as keyof TaskwireMessages] as Record<
      string,
      readonly unknown[][]
    >;
    for (const [name, message] of Object.entries(entries as Record<string, unknown>)) {
      if (typeof message === 'string') texts.push(message);
      else if (typeof message === 'function') {
        const calls = samples[name];
        if (!calls) throw new Error(`no sample arguments for ${group}.${name}`);
        for (const args of calls) texts.push((message as (...a: unknown[]) => string)(...args));
      }
    }
  }
  return texts;
}

/** The lower-case words (runs of letters) of `text`. */
export function wordsOf(text: string): string[] {
  return (text.match(/\p{L}+/gu) ?? []).map((word) => word.toLowerCase());
}

/**
 * English words that German writes the same way, so finding them in German is no fault: "in",
 * "Minute" and "App" are German words, "s" and "min" unit symbols, and German products sell
 * "Credits" under that name. The German check also asserts that each of these occurs in the German
 * messages, so the list cannot outgrow what German really shares.
 */
export const SHARED_WITH_GERMAN: readonly string[] = [
  'in',
  'minute',
  'app',
  's',
  'min',
  'credit',
  'credits',
];

/** The words of the English messages, less those German shares. */
export const ENGLISH_WORDS: ReadonlySet<string> = new Set(
  messageTexts(englishMessages)
    .flatMap(wordsOf)
    .filter((word) => !SHARED_WITH_GERMAN.includes(word)),
);

/** Attributes whose text a user reads or hears. */
const READ_ATTRIBUTES = ['aria-label', 'aria-valuetext', 'title', 'alt', 'placeholder'];

/**
 * The English words in what `root` shows or says (text, including visually hidden live regions,
 * and the attributes a screen reader speaks), each once, in the order found.
 */
export function findEnglishWords(root: Element): string[] {
  // Text node by text node: `textContent` would run the words of neighbouring elements together.
  const texts: string[] = [];
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    texts.push(node.nodeValue ?? '');
  for (const element of [root, ...root.querySelectorAll('*')]) {
    for (const name of READ_ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  return [...new Set(texts.flatMap(wordsOf).filter((word) => ENGLISH_WORDS.has(word)))];
}
