/**
 * The ids of tasks that do not exist, which the checks ask for (docs/checking-your-service.md,
 * "Tokens and refusals"): one of the service's own shape, which it must answer as unknown, and a
 * made-up one of no service's shape.
 */

/** A made-up task id that no service gave out, of no service's shape. */
export function madeUpId(): string {
  return `taskwire-check-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Letters and digits by class: a changed character stays in its class (hex stays hex). */
const CHARACTER_CLASSES = [
  '0123456789',
  'abcdef',
  'ghijklmnopqrstuvwxyz',
  'ABCDEF',
  'GHIJKLMNOPQRSTUVWXYZ',
];

/**
 * An id of the same shape as `id` that the service never gave out: its last twelve letters and
 * digits changed, each within its class, so that a UUID stays a UUID of the same version and a
 * service that checks its ids' format reads it as a well-formed unknown id.
 */
export function lookalikeId(id: string): string {
  const characters = [...id];
  let changed = 0;
  for (let index = characters.length - 1; index >= 0 && changed < 12; index -= 1) {
    const set = CHARACTER_CLASSES.find((candidate) => candidate.includes(characters[index]!));
    if (set === undefined) continue;
    const now = set.indexOf(characters[index]!);
    // Never the same character: the id differs, whatever chance picks.
    characters[index] = set[(now + 1 + Math.floor(Math.random() * (set.length - 1))) % set.length]!;
    changed += 1;
  }
  return changed === 0 ? madeUpId() : characters.join('');
}
