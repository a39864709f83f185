/**
 * Time-of-use price segments: at most 6, covering the day from 00:00 to 23:59 with no
 * gap and no overlap, each ending after it starts, each price 0–9999 with at most two decimals.
 * The same rules as the server's `checkSegments` (it sorts by start first, so do we), reported
 * per row so the editor can show each problem next to its field.
 */
import { isDecimalInRange, limits } from '@sunfleet/contracts';

/** A row as the editor holds it: times `HH:mm` (empty while unset), price possibly unset. */
export interface SegmentDraft {
  start: string;
  end: string;
  price: number | null;
}

export type SegmentProblemKey =
  | 'required'
  | 'tooMany'
  | 'timeRequired'
  | 'priceRequired'
  | 'price'
  | 'endBeforeStart'
  | 'firstStart'
  | 'overlap'
  | 'gap'
  | 'lastEnd';

export interface SegmentProblem {
  /** Row index in the editor's order; null for the list as a whole. */
  row: number | null;
  field?: 'start' | 'end' | 'price';
  key: SegmentProblemKey;
  /** Values for the message (e.g. the uncovered span). */
  values?: Record<string, string | number>;
}

export const DAY_START = '00:00';
export const DAY_END = '23:59';
const HHMM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
export const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

export function segmentProblems(segments: readonly SegmentDraft[]): SegmentProblem[] {
  const problems: SegmentProblem[] = [];
  if (segments.length === 0) return [{ row: null, key: 'required' }];
  if (segments.length > limits.priceSegments) problems.push({ row: null, key: 'tooMany', values: { max: limits.priceSegments } });

  segments.forEach((s, row) => {
    if (!HHMM.test(s.start)) problems.push({ row, field: 'start', key: 'timeRequired' });
    if (!HHMM.test(s.end)) problems.push({ row, field: 'end', key: 'timeRequired' });
    if (s.price === null || Number.isNaN(s.price)) problems.push({ row, field: 'price', key: 'priceRequired' });
    else if (!isDecimalInRange(String(s.price), limits.price.min, limits.price.max))
      problems.push({ row, field: 'price', key: 'price', values: { min: limits.price.min, max: limits.price.max } });
    if (HHMM.test(s.start) && HHMM.test(s.end) && toMinutes(s.end) <= toMinutes(s.start))
      problems.push({ row, field: 'end', key: 'endBeforeStart' });
  });
  // Coverage is judged once every segment is a real span, in start order (as the server does);
  // before that, gaps and overlaps computed from a backwards segment only confuse.
  if (segments.some((s) => !HHMM.test(s.start) || !HHMM.test(s.end) || toMinutes(s.end) <= toMinutes(s.start))) return problems;
  const order = segments.map((s, row) => ({ ...s, row })).sort((a, b) => toMinutes(a.start) - toMinutes(b.start));
  order.forEach((s, i) => {
    const previous = order[i - 1];
    if (!previous) {
      if (s.start !== DAY_START) problems.push({ row: s.row, field: 'start', key: 'firstStart', values: { time: DAY_START } });
      return;
    }
    if (s.start === previous.end) return;
    const overlap = toMinutes(s.start) < toMinutes(previous.end);
    problems.push({
      row: s.row,
      field: 'start',
      key: overlap ? 'overlap' : 'gap',
      values: overlap ? { other: previous.row + 1 } : { from: previous.end, to: s.start },
    });
  });
  const last = order.at(-1)!;
  if (last.end !== DAY_END) problems.push({ row: last.row, field: 'end', key: 'lastEnd', values: { time: DAY_END } });
  return problems;
}

/** The segments as the contract takes them, in start order (call only when there is no problem). */
export function segmentsBody(segments: readonly SegmentDraft[]): Array<{ start: string; end: string; price: number }> {
  return [...segments]
    .sort((a, b) => toMinutes(a.start) - toMinutes(b.start))
    .map((s) => ({ start: s.start, end: s.end, price: s.price ?? 0 }));
}

/**
 * A new row after the last: it starts where the last ends. If the last already ends at 23:59,
 * the last is split in two at the middle of its span, so the day stays covered.
 */
export function addSegment(segments: readonly SegmentDraft[]): SegmentDraft[] {
  if (segments.length >= limits.priceSegments) return [...segments];
  const last = segments.at(-1);
  if (!last) return [{ start: DAY_START, end: DAY_END, price: null }];
  if (last.end === DAY_END && HHMM.test(last.start)) {
    const from = toMinutes(last.start);
    const middle = Math.floor((from + toMinutes(DAY_END)) / 2 / 60) * 60;
    const split = middle > from ? middle : from + Math.floor((toMinutes(DAY_END) - from) / 2);
    if (split > from && split < toMinutes(DAY_END)) {
      const hhmm = fromMinutes(split);
      return [...segments.slice(0, -1), { ...last, end: hhmm }, { start: hhmm, end: DAY_END, price: last.price }];
    }
  }
  return [...segments, { start: HHMM.test(last.end) ? last.end : '', end: DAY_END, price: null }];
}

/**
 * Change one time of a row; a neighbour that met the old time moves with it, so an edit keeps
 * the day covered (a change that would make the neighbour empty is left for validation).
 */
export function setSegmentTime(
  segments: readonly SegmentDraft[],
  row: number,
  field: 'start' | 'end',
  value: string,
): SegmentDraft[] {
  const next = segments.map((s) => ({ ...s }));
  const target = next[row];
  if (!target) return next;
  const old = target[field];
  target[field] = value;
  if (!HHMM.test(value) || !HHMM.test(old)) return next;
  const neighbour = field === 'end' ? next[row + 1] : next[row - 1];
  const joined = field === 'end' ? 'start' : 'end';
  if (neighbour && neighbour[joined] === old) neighbour[joined] = value;
  return next;
}

/** Remove a row; its span goes to the row before it (or after it, for the first), keeping the day covered. */
export function removeSegment(segments: readonly SegmentDraft[], row: number): SegmentDraft[] {
  const removed = segments[row];
  if (!removed) return [...segments];
  const next = segments.filter((_, i) => i !== row).map((s) => ({ ...s }));
  const before = next[row - 1];
  const after = next[row];
  if (before && before.end === removed.start) before.end = removed.end;
  else if (!before && after && after.start === removed.end) after.start = removed.start;
  return next;
}

export const fromMinutes = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
