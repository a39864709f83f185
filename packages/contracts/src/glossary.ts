/**
 * One word per thing in each language: the interface catalogues, the error texts, the event
 * catalogue, the protocols' event names and the mails follow this list, and tests walk every text
 * for the words it rules out. Add a term when two words start to compete for one thing.
 */
import type { Language } from './errors.ts';

export interface GlossaryTerm {
  /** What the term names. */
  concept: string;
  /** The word to use, per language. */
  use: Readonly<Record<Language, string>>;
  /** Words that must not name it, per language (matched case-insensitively as whole words). */
  avoid: Readonly<Partial<Record<Language, readonly RegExp[]>>>;
}

export const glossary: readonly GlossaryTerm[] = [
  {
    concept: 'an event of the warning level, and plant and device status "warning"',
    use: { en: 'warning', es: 'advertencia' },
    avoid: { es: [/\bavisos?\b/iu] },
  },
  {
    concept: 'the information event level',
    use: { en: 'info', es: 'información' },
    avoid: { es: [/\binfo\b/iu] },
  },
  {
    concept: 'a plant, gateway or device without a connection to the portal',
    use: { en: 'offline', es: 'desconectado / desconectada' },
    avoid: { es: [/\bsin conexión\b/iu, /\bfuera de línea\b/iu] },
  },
  {
    concept: 'an electricity meter (a device); a device’s energy counter stays "contador de energía"',
    use: { en: 'meter', es: 'medidor' },
    avoid: { es: [/\bcontador(es)?\b(?! de energía)/iu] },
  },
  {
    concept: 'the data logger that connects devices to the portal',
    use: { en: 'gateway', es: 'pasarela' },
    avoid: { es: [/\bgateways?\b/iu, /\bregistrador(es)?\b/iu] },
  },
  {
    concept: 'a solar or storage plant (station)',
    use: { en: 'plant', es: 'planta' },
    avoid: { es: [/\bcentral(es)?\b/iu] },
  },
];

/** Where texts use a word the glossary rules out: "key: “Aviso” (use advertencia)". */
export function glossaryProblems(texts: Readonly<Record<string, string>>, lan: Language): string[] {
  const problems: string[] = [];
  for (const [key, raw] of Object.entries(texts)) {
    // Placeholders ({{gateways}}) are names in the code, not words of the text.
    const text = raw.replace(/\{\{[^}]*\}\}/g, '');
    for (const term of glossary) {
      for (const avoid of term.avoid[lan] ?? []) {
        const found = avoid.exec(text);
        if (found) problems.push(`${key}: “${found[0]}” (use ${term.use[lan]})`);
      }
    }
  }
  return problems;
}
