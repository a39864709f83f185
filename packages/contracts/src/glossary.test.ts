import { describe, expect, it } from 'vitest';
import { errorCatalogue } from './errors.ts';
import { glossaryProblems } from './glossary.ts';
import { allPermissions } from './permissions.ts';

describe('glossary', () => {
  it('finds a ruled-out word as a whole word only, and names the word to use', () => {
    expect(glossaryProblems({ a: 'Aviso del BMS', b: 'Información', c: 'Avisador' }, 'es')).toEqual([
      'a: “Aviso” (use advertencia)',
    ]);
    expect(glossaryProblems({ a: 'Comunicación con el contador perdida' }, 'es')).toEqual(['a: “contador” (use medidor)']);
    expect(glossaryProblems({ a: 'Compruebe el contador de energía', b: 'Nivel: Info' }, 'es')).toEqual([
      'b: “Info” (use información)',
    ]);
    expect(glossaryProblems({ a: 'Info' }, 'en')).toEqual([]);
  });

  it('the error texts and the permission names follow it in both languages', () => {
    for (const lan of ['en', 'es'] as const) {
      const errors = Object.fromEntries(Object.entries(errorCatalogue).map(([code, e]) => [`error ${code}`, e[lan]]));
      const permissions = Object.fromEntries(allPermissions.map((p) => [`permission ${p.name}`, p[lan]]));
      expect(glossaryProblems({ ...errors, ...permissions }, lan)).toEqual([]);
    }
  });
});
