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
  // The tools of the reference service's demo tasks; an app adds its own tools' names.
  tools: {
    'video-render': 'Video-Rendering',
    'image-gen': 'Bilderzeugung',
    upscale: 'Hochskalierung',
    'safety-check': 'Sicherheitsprüfung',
    translate: 'Übersetzung',
    export: 'Datenexport',
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
    readFailed: (status) =>
      status === 404 || status === 410
        ? 'Nicht mehr beim Dienst'
        : status === 401
          ? 'Zum Lesen nicht angemeldet'
          : 'Nicht lesbar',
    outcomeUnknown: 'Ausgang unbekannt',
  },
  errors: {
    http: (status) =>
      `Der Dienst hat ${status === undefined ? 'mit einem Fehler' : `mit ${status}`} geantwortet, aber nicht in der Form des Protokolls: Die Adresse, die die App aufruft, ist vielleicht falsch.`,
    refused: (status) =>
      status === undefined
        ? 'Der Dienst hat die Anfrage abgelehnt.'
        : `Der Dienst hat die Anfrage abgelehnt (Fehlercode ${status}).`,
    network:
      'Die Verbindung zum Dienst ist abgebrochen oder kam nicht zustande. Versuchen Sie es erneut, sobald die Verbindung wieder steht.',
    timeout: 'Der Dienst hat zu lange nicht geantwortet. Versuchen Sie es erneut.',
    protocol: 'Die Antwort des Dienstes kann die App nicht lesen.',
    aborted: 'Die Anfrage wurde abgebrochen.',
    auth: 'Die Anmeldung beim Dienst ist fehlgeschlagen. Melden Sie sich erneut an und versuchen Sie es dann noch einmal.',
    taskFailed: 'Die Aufgabe ist fehlgeschlagen.',
    unknown: 'Etwas ist schiefgegangen.',
    UNAUTHENTICATED:
      'Der Dienst hat die Anmeldung nicht angenommen. Melden Sie sich erneut an und versuchen Sie es dann noch einmal.',
    INVALID_HEADER: 'Der Dienst hat eine Kopfzeile der Anfrage abgelehnt.',
    MALFORMED_REQUEST: 'Der Dienst konnte die Anfrage nicht lesen.',
    MALFORMED_BODY: 'Der Dienst konnte die Anfrage nicht lesen.',
    INVALID_PARAMS:
      'Die Aufgabe hat Werte erhalten, die sie nicht annimmt. Korrigieren Sie die Eingaben.',
    INVALID_NOTIFICATION: 'Die mit der Aufgabe gewünschte Benachrichtigung ist ungültig.',
    UNSUPPORTED_MEDIA_TYPE: 'Der Dienst hat die Form der Anfrage abgelehnt.',
    PAYLOAD_TOO_LARGE: 'Die Anfrage ist für den Dienst zu groß.',
    REQUEST_TIMEOUT:
      'Die Anfrage hat zu lange gebraucht, um den Dienst zu erreichen. Versuchen Sie es erneut.',
    TASK_NOT_FOUND: 'Der Dienst kennt keine Aufgabe dieses Namens.',
    RESULT_NOT_FOUND: 'Der Dienst kennt diese Aufgabe für diesen Benutzer nicht.',
    RESULT_EXPIRED:
      'Das Ergebnis der Aufgabe wurde nur eine Zeit lang aufbewahrt und ist gelöscht.',
    METHOD_NOT_ALLOWED: 'Der Dienst nimmt diese Art von Anfrage unter dieser Adresse nicht an.',
    NOT_FOUND:
      'Der Dienst hat unter dieser Adresse nichts: Die Adresse, die die App aufruft, ist vielleicht falsch.',
    IDEMPOTENCY_KEY_REUSED: 'Die Anfrage wurde mit anderem Inhalt erneut gesendet.',
    RATE_LIMITED:
      'Zu viele Anfragen. Warten Sie einen Augenblick und versuchen Sie es dann erneut.',
    TOO_MANY_TASKS:
      'Es laufen zu viele Aufgaben. Warten Sie, bis eine beendet ist, und versuchen Sie es dann erneut.',
    EXECUTE_TIMEOUT:
      'Die Aufgabe dauert länger, als eine direkte Antwort dauern darf; sie läuft beim Dienst weiter.',
    EVENTS_EXPIRED:
      'Die Zwischenstände der Aufgabe werden nicht mehr aufbewahrt; stattdessen wird ihr Ergebnis gelesen.',
    EVENTS_UNAVAILABLE:
      'Die Zwischenstände der Aufgabe konnten nicht gelesen werden. Versuchen Sie es später erneut.',
    INVALID_FOLLOW: 'Der Dienst hat die Liste der verfolgten Aufgaben abgelehnt.',
    TASK_ERROR: 'Die Aufgabe ist fehlgeschlagen.',
    INTERNAL: 'Beim Dienst ist ein Fehler aufgetreten. Versuchen Sie es später erneut.',
    INVALID_TASK_NAME: 'Der Aufgabenname ist ungültig.',
    INVALID_TASK_ID: 'Die Kennung der Aufgabe ist ungültig.',
    INVALID_BASE_URL: 'Die Adresse des Dienstes ist ungültig.',
    REDIRECT:
      'Die Adresse, die die App aufruft, leitet anderswohin weiter: Sie ist vielleicht falsch.',
    CONNECT_FAILED:
      'Der Dienst war nicht erreichbar, es wurde nichts gesendet. Versuchen Sie es erneut, sobald die Verbindung wieder steht.',
    NOT_A_TASKWIRE_ANSWER:
      'Die Adresse, die die App aufruft, hat geantwortet, aber nicht wie der Aufgabendienst: Sie ist vielleicht falsch.',
    JOURNAL_ENTRY_REFUSED:
      'Die Aufgabe konnte nicht in der Aufgabenliste dieses Browsers gespeichert werden.',
    SCOPE_REQUIRED: 'Die Aufgabenliste weiß nicht, wessen Aufgaben sie führen soll.',
    UPSTREAM_REDIRECT:
      'Der Webserver der App hat eine Adresse des Dienstes erreicht, die weiterleitet.',
    UPSTREAM_NOT_JSON:
      'Der Dienst hat dem Webserver der App eine Seite statt Daten geschickt. Versuchen Sie es später erneut.',
    UPSTREAM_TIMEOUT:
      'Der Dienst hat dem Webserver der App nicht rechtzeitig geantwortet. Versuchen Sie es erneut.',
    UPSTREAM_UNAVAILABLE:
      'Der Webserver der App konnte den Dienst nicht erreichen. Versuchen Sie es später erneut.',
  },
};
