/**
 * What a number field shows and what it reads, in a language's own marks (`Intl`): Spanish
 * shows 1234.5 as "1234,5" and 12345.5 as "12.345,5" and reads "12,5" as 12.5; English shows
 * "12,345.5". A field with `maxDecimals` keeps at most that many decimals of what is typed.
 */

/** The group and decimal marks of a language. */
export function numberMarks(locale: string): { group: string; decimal: string } {
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(12345.6);
  return {
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
  };
}

/** A field's value as text in the language; '' for none. Every decimal the value has is shown. */
export function formatNumberInput(value: number | string | null | undefined, locale: string): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return '';
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 20, useGrouping: true }).format(n);
}

/** Spaces, which some languages group with (fr: a narrow no-break space). */
const SPACES = /[\s\u00a0\u202f]/g;

/**
 * The number a field's text stands for, or null when it holds none. The language's group marks
 * are dropped and its decimal mark read as the point. Where the group mark is "." (es), a lone
 * "." not followed by exactly three digits is a decimal point typed the other way ("12.5").
 */
export function parseNumberInput(text: string | null | undefined, locale: string, maxDecimals?: number): number | null {
  if (text === null || text === undefined) return null;
  const { group, decimal } = numberMarks(locale);
  let s = text.replace(SPACES, '');
  if (group === '.' && !s.includes(decimal) && s.split('.').length === 2 && !/\.\d{3}$/.test(s)) s = s.replace('.', decimal);
  if (group.trim() !== '') s = s.split(group).join('');
  s = s
    .split(decimal)
    .join('.')
    .replace(/[^\d.-]/g, '');
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!match || (match[2] === '' && !match[3])) return null;
  const fraction = (match[3] ?? '').slice(0, maxDecimals ?? undefined);
  const n = Number(`${match[1]}${match[2] || '0'}${fraction ? `.${fraction}` : ''}`);
  return Number.isFinite(n) ? n : null;
}
