/**
 * Text search ("contains") folded alike on both stores: lower case and without accents, so
 * "MÁLAGA", "malaga" and "Málaga" find one another. The accents folded are those of the
 * portal's Latin-script languages: vowels with grave, acute, circumflex, tilde, diaeresis or ring,
 * ñ and ç (a letter like ł or š stays itself). The same SQL runs on both stores:
 *
 * - a column passes first a plain `lower(x) like` on the text's skeleton, in which each letter
 *   that has accented forms matches any one character ("malaga" → `%m_l_g_%`): as cheap as the
 *   search without folding, and it leaves few rows;
 * - those it leaves are folded (`lower`, then the accented forms of the text's letters replaced,
 *   in both cases because SQLite's lower() folds only A–Z) and compared with the folded text; a
 *   value of plain ASCII is only lowered.
 *
 * The searched text is folded here the same way; its `%`, `_` and `!` are taken literally.
 */
import { type RawBuilder, sql } from 'kysely';

/** Each plain letter and the accented forms that fold to it. */
const FAMILIES: Record<string, string> = {
  a: 'àáâãäå',
  e: 'èéêë',
  i: 'ìíîï',
  o: 'òóôõöø',
  u: 'ùúûü',
  y: 'ýÿ',
  n: 'ñ',
  c: 'ç',
};

/** Accented letter → plain letter, lower and upper case. */
export const FOLDS: ReadonlyMap<string, string> = new Map(
  Object.entries(FAMILIES).flatMap(([plain, accented]) =>
    [...accented].flatMap((c) => {
      const upper = c.toUpperCase();
      return upper.length === 1 && upper !== c ? [[c, plain] as const, [upper, plain] as const] : [[c, plain] as const];
    }),
  ),
);

/** The text as searched: lower case, accents removed. */
export const foldText = (text: string) => [...text.toLowerCase()].map((c) => FOLDS.get(c) ?? c).join('');

const escapeLike = (c: string) => (c === '!' || c === '%' || c === '_' ? `!${c}` : c);

/** `text` as a LIKE pattern for "contains" (escape character `!`), folded. */
export const containsPattern = (text: string) => `%${[...foldText(text.trim())].map(escapeLike).join('')}%`;

/** The pattern a column's lower() must match before it is folded: each letter with accented forms any one character. */
export const skeletonPattern = (text: string) =>
  `%${[...foldText(text.trim())].map((c) => (c in FAMILIES ? '_' : escapeLike(c))).join('')}%`;

/**
 * A column folded in SQL as `foldText` folds text, for comparing with `letters` (folded): only
 * the accented forms of those letters are replaced, since no other letter can match one of them.
 */
export function folded(column: string, letters: string): RawBuilder<string> {
  const ref = sql.ref(column);
  let out: RawBuilder<string> = sql<string>`lower(${ref})`;
  for (const [from, to] of FOLDS) if (letters.includes(to)) out = sql<string>`replace(${out}, ${sql.lit(from)}, ${sql.lit(to)})`;
  // Plain ASCII (as many bytes as characters) has nothing to replace.
  return sql<string>`(case when octet_length(${ref}) = length(${ref}) then lower(${ref}) else ${out} end)`;
}

/** Any of `columns` contains `text`, case and accents folded (a null column contains nothing). */
export function containsText(columns: readonly string[], text: string): RawBuilder<boolean> {
  const pattern = containsPattern(text);
  const skeleton = skeletonPattern(text);
  const letters = foldText(text);
  const each = columns.map((c) =>
    // Without a letter that has accented forms the skeleton is the pattern: nothing to fold.
    skeleton === pattern
      ? sql<boolean>`lower(${sql.ref(c)}) like ${pattern} escape '!'`
      : sql<boolean>`(lower(${sql.ref(c)}) like ${skeleton} escape '!' and ${folded(c, letters)} like ${pattern} escape '!')`,
  );
  return sql<boolean>`(${sql.join(each, sql` or `)})`;
}
