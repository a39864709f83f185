/**
 * The server's reasons about an event, in the user's language. The server writes them in English;
 * the ones it is known to write are recognised by their fixed words (the programme or targets they
 * name carried over), anything else is shown as the server wrote it.
 * - "programme P is not one this portal is enrolled in" (ignored: not a programme of the portal)
 * - "targets A, B name neither this VEN nor its resources" (ignored: meant for other nodes)
 * - "the VTN no longer has this event" (ended before its window)
 */

type Translate = (key: string, values?: Record<string, string>) => string;

const KNOWN: readonly { pattern: RegExp; key: string }[] = [
  { pattern: /^programme (?<name>.+) is not one this portal is enrolled in$/, key: 'reasons.programme' },
  { pattern: /^targets (?<name>.+) name neither this VEN nor its resources$/, key: 'reasons.targets' },
  { pattern: /^the VTN no longer has this event$/, key: 'reasons.gone' },
];

/** The catalogue key and values of a known reason; null for any other text. */
export function knownReason(reason: string): { key: string; values: Record<string, string> } | null {
  const text = reason.trim();
  for (const { pattern, key } of KNOWN) {
    const m = pattern.exec(text);
    if (m) return { key, values: m.groups?.name ? { name: m.groups.name } : {} };
  }
  return null;
}

/** A reason in the language of `t` (the energyHub namespace); the server's text when it is not a known one. */
export function reasonText(reason: string, t: Translate): string {
  const known = knownReason(reason);
  return known ? t(known.key, known.values) : reason;
}
