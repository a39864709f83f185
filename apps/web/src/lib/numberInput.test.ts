import { describe, expect, it } from 'vitest';
import { formatNumberInput, numberMarks, parseNumberInput } from './numberInput.ts';

describe('number fields in the interface language', () => {
  it('Spanish: "," is the decimal mark, "." groups thousands', () => {
    expect(numberMarks('es')).toEqual({ group: '.', decimal: ',' });
    expect(parseNumberInput('12,5', 'es')).toBe(12.5);
    expect(formatNumberInput(12.5, 'es')).toBe('12,5');
    expect(formatNumberInput(12345.5, 'es')).toBe('12.345,5');
    expect(parseNumberInput('12.345,5', 'es')).toBe(12345.5);
    expect(parseNumberInput('1.234', 'es')).toBe(1234);
    expect(parseNumberInput('-0,75', 'es')).toBe(-0.75);
  });

  it('Spanish: a lone "." that cannot be a thousands group is the decimal point typed the other way', () => {
    expect(parseNumberInput('12.5', 'es')).toBe(12.5);
    expect(parseNumberInput('12.50', 'es')).toBe(12.5);
    expect(parseNumberInput('1.2345', 'es')).toBe(1.2345);
  });

  it('English is unchanged: "." is the decimal point, "," groups', () => {
    expect(parseNumberInput('12.5', 'en')).toBe(12.5);
    expect(formatNumberInput(12.5, 'en')).toBe('12.5');
    expect(formatNumberInput(12345.5, 'en')).toBe('12,345.5');
    expect(parseNumberInput('12,345.5', 'en')).toBe(12345.5);
    expect(parseNumberInput('1,234', 'en')).toBe(1234);
  });

  it('other languages through Intl: French groups with a space', () => {
    expect(parseNumberInput(formatNumberInput(12345.5, 'fr'), 'fr')).toBe(12345.5);
    expect(parseNumberInput('12,5', 'fr')).toBe(12.5);
  });

  it('keeps at most maxDecimals of what is typed', () => {
    expect(parseNumberInput('12,345', 'es', 2)).toBe(12.34);
    expect(parseNumberInput('12,3456', 'es', 2)).toBe(12.34);
    expect(parseNumberInput('0.129', 'en', 2)).toBe(0.12);
    expect(parseNumberInput('7', 'en', 0)).toBe(7);
  });

  it('no number: empty, a sign alone, letters', () => {
    for (const text of ['', '-', ',', 'abc', null, undefined]) expect(parseNumberInput(text, 'es')).toBeNull();
    expect(formatNumberInput(null, 'es')).toBe('');
    expect(formatNumberInput('', 'es')).toBe('');
  });
});
