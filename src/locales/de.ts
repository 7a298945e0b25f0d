/**
 * `taskwire/locales/de`: the components' messages in German, complete, so that a
 * key added to `TaskwireMessages` fails to compile here until it is translated. Pass it whole,
 * `<TaskwireProvider messages={de} locale="de">`; only an app that imports this module loads it.
 * "Credits" stays: German products sell credits under that name.
 *
 * @packageDocumentation
 */
import type { TaskwireMessages } from '../components/messages/messages.js';

/** "1 Stunde", "1,5 Stunden": the singular only for exactly one, as `Intl.PluralRules('de')` says. */
const plural = (count: number, one: string, other: string) => (count === 1 ? one : other);

/** The components' messages in German. */
export const de: TaskwireMessages = {
  status: {
    idle: 'Nicht gestartet',
    queued: 'In der Warteschlange',
    running: 'Läuft',
    reconnecting: 'Verbindung wird wiederhergestellt',
    completed: 'Abgeschlossen',
    failed: 'Fehlgeschlagen',
  },
  credits: {
    credits: (count, figure) => `${figure} ${plural(count, 'Credit', 'Credits')}`,
  },
  timeLeft: {
    fewSeconds: 'noch wenige Sekunden',
    secondsShort: (_seconds, figure) => `noch etwa ${figure} s`,
    secondsLong: (seconds, figure) =>
      `noch etwa ${figure} ${plural(seconds, 'Sekunde', 'Sekunden')}`,
    underAMinute: 'noch knapp eine Minute',
    minutesShort: (_minutes, figure) => `noch etwa ${figure} Min.`,
    minutesLong: (minutes, figure) => `noch etwa ${figure} ${plural(minutes, 'Minute', 'Minuten')}`,
    hoursShort: (_hours, figure) => `noch etwa ${figure} Std.`,
    hoursLong: (hours, figure) => `noch etwa ${figure} ${plural(hours, 'Stunde', 'Stunden')}`,
  },
  taskProgress: {
    label: 'Fortschritt der Aufgabe',
    percent: (_percent, figure) => `${figure} Prozent`,
    ongoing: (status) => `${status} …`,
    joined: (first, second) => `${first}, ${second}`,
    failedBecause: (failed, reason) => `${failed}: ${reason}`,
    named: (name, announcement) => `${name}: ${announcement}`,
  },
  creditCostPreview: {
    label: 'Kosten',
    loading: 'Preis wird abgefragt …',
    free: 'Kostenlos',
    unpriced: 'Kein Preis angegeben',
    noCredits: 'Preis nicht genannt',
    error: 'Der Preis konnte nicht abgefragt werden',
    overBudget: (balance) => `Mehr als Ihr Guthaben von ${balance}.`,
    tool: 'Werkzeug',
    usage: 'Nutzung',
    updating: 'Wird aktualisiert …',
    retry: 'Erneut versuchen',
  },
  usageBreakdown: {
    caption: 'Verbrauchte Credits',
    empty: 'Es wurden keine Credits verbraucht.',
    tool: 'Werkzeug',
    price: 'Preis',
    amount: 'Menge',
    credits: 'Credits',
    notCharged: 'Nicht berechnet (fehlgeschlagen)',
    total: 'Summe',
    mismatch: 'Diese Zahlen gehen nicht auf.',
    totalMismatch: (reported, rows) =>
      `Der Dienst meldet insgesamt ${reported}, die berechneten Zeilen ergeben ${rows}.`,
    rowMismatch: (tool, charged, expected) =>
      `${tool}: berechnet wurden ${charged}, Preis × Menge ergibt aber ${expected}.`,
    chargedAsQuoted: (charged) => `Wie veranschlagt berechnet: ${charged}.`,
    quotedAndCharged: (quoted, charged) => `Veranschlagt ${quoted}, berechnet ${charged}.`,
  },
  taskEventList: {
    label: 'Ereignisse',
    empty: 'Noch keine Ereignisse.',
    field: (name, value) => `${name}: ${value}`,
    fieldSeparator: ', ',
  },
  notificationActions: {
    openWeb: (host) => `${host} öffnen`,
    openApp: 'In der App öffnen',
    labelInApp: (label) => `${label} in der App`,
  },
  taskList: {
    label: 'Aufgaben',
    empty: 'Noch keine Aufgaben.',
    done: (_percent, figure) => `${figure} erledigt`,
    started: (time, today) => `Gestartet ${today ? 'um' : 'am'} ${time}`,
    dismiss: 'Ausblenden',
    dismissLabel: (task, time, today) =>
      `${task} ausblenden, gestartet ${today ? 'um' : 'am'} ${time}`,
  },
};
