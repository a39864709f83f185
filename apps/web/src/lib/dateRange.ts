/**
 * Report date ranges (at most 90 days) and their quick ranges: today, yesterday and the last
 * 3, 5, 7, 30, 60 and 90 days, each ending today (yesterday: that day alone). Days are local
 * calendar days written YYYY-MM-DD; a range counts both ends.
 */
import { limits, quickRanges } from '@sunfleet/contracts';

export type QuickRange = (typeof quickRanges)[number];
export interface DateRange {
  start: string;
  end: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
export const dayString = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** A YYYY-MM-DD day (a plant's today, say) as a local Date, what the quick ranges count from. */
export const dayDate = (day: string) => new Date(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));

function addDays(d: Date, days: number): Date {
  const out = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  out.setDate(out.getDate() + days);
  return out;
}

export function quickRange(kind: QuickRange, today = new Date()): DateRange {
  if (kind === 'today') return { start: dayString(today), end: dayString(today) };
  if (kind === 'yesterday') {
    const y = dayString(addDays(today, -1));
    return { start: y, end: y };
  }
  const days = Number(kind.slice(4));
  return { start: dayString(addDays(today, -(days - 1))), end: dayString(today) };
}

export const allQuickRanges: readonly QuickRange[] = quickRanges;

/** Calendar days from start to end, both counted (UTC arithmetic: no daylight-saving drift). */
export function rangeDays({ start, end }: DateRange): number {
  const ms = (s: string) => Date.UTC(Number(s.slice(0, 4)), Number(s.slice(5, 7)) - 1, Number(s.slice(8, 10)));
  return Math.round((ms(end) - ms(start)) / 86_400_000) + 1;
}

/** Why a range is refused, or null: an end before the start, or more than 90 days. */
export function rangeProblem(range: DateRange): 'order' | 'tooLong' | null {
  const days = rangeDays(range);
  if (!(days >= 1)) return 'order';
  if (days > limits.dateRangeDays) return 'tooLong';
  return null;
}
