import { describe, expect, it } from 'vitest';
import { changedSections } from './PlantEditPage.tsx';
import { emptyPlant, plantBody } from './PlantForm.tsx';

describe('which plant sections an edit changes', () => {
  const base = plantBody({ ...emptyPlant(), name: 'Casa Marta', timezone: 'Europe/Madrid', capacity: 6 });
  it('nothing, one section, or several', () => {
    expect(changedSections(base, { ...base })).toEqual([]);
    expect(changedSections(base, { ...base, name: 'Casa Marta 2' })).toEqual(['info']);
    expect(changedSections(base, { ...base, price: 0.2 })).toEqual(['income']);
    expect(changedSections(base, { ...base, contactPhone: '+34600000000' })).toEqual(['contacts']);
    expect(changedSections(base, { ...base, capacity: 7, contactName: 'Marta' })).toEqual(['info', 'contacts']);
  });
  it('a price segment edit is an income change', () => {
    const tou = { ...base, valuationMethod: 'tou' as const, priceSegments: [{ start: '00:00', end: '23:59', price: 0.1 }] };
    expect(changedSections(tou, { ...tou, priceSegments: [{ start: '00:00', end: '23:59', price: 0.12 }] })).toEqual(['income']);
  });
});
