/** The stock's texts: both languages say the same things, and keep to the glossary. */
import { glossaryProblems, type Language } from '@sunfleet/contracts';
import { describe, expect, it } from 'vitest';
import { texts } from './texts.ts';

function flat(value: unknown, prefix: string, out: Record<string, string>) {
  if (typeof value === 'string') out[prefix] = value;
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) flat(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}
const all = (lan: Language) => flat(texts(lan), '', {});

describe('gateway stock texts', () => {
  it('has every text in en and es', () => {
    expect(Object.keys(all('es')).sort()).toEqual(Object.keys(all('en')).sort());
    expect(all('es').sheet).toBe('Pasarelas');
  });

  it.each(['en', 'es'] as const)('%s keeps to the glossary', (lan) => {
    expect(glossaryProblems(all(lan), lan)).toEqual([]);
  });
});
