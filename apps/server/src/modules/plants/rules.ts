/**
 * Plant field rules beyond the schema's shape: names, decimals, dates, zone and
 * currency, coordinates (code 10), and the valuation method with its time-of-use segments.
 * `plantColumns` checks the fields sent against the plant as it will be after the change, and
 * returns the columns to write; it throws a BusinessError and writes nothing on a bad value.
 */
import { ErrorCode, isDecimalInRange, isPlantName, limits, plantsApi } from '@sunfleet/contracts';
import type { Updateable } from 'kysely';
import type { Static } from 'typebox';
import type { PlantsTable } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import { canonicalTimezone } from '../../time/index.ts';

export type PlantFields = Static<typeof plantsApi.PlantEditInput>;
type Segment = Static<typeof plantsApi.PriceSegment>;
const { valuationMethods } = plantsApi;

const currencies: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** The valuation fields of a stored plant, to check an edit that changes only some of them. */
export interface StoredValuation {
  valuation_method: string;
  price_segments: string;
  latitude: number | null;
  longitude: number | null;
}

function decimal(field: string, value: number | null | undefined, min: number, max: number) {
  if (value === null || value === undefined) return;
  if (!isDecimalInRange(String(value), min, max))
    fail(ErrorCode.validation, `body.${field} must be from ${min} to ${max} with at most two decimals`);
}

const text = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null);

function realDate(day: string) {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d)
    fail(ErrorCode.validation, 'body.commissioningDate is not a date');
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

/** At most 6 segments covering the day from 00:00 to 23:59, each starting where the last ended. */
export function checkSegments(segments: readonly Segment[]): Segment[] {
  if (segments.length === 0)
    fail(ErrorCode.validation, 'body.priceSegments: the time-of-use method needs at least one price segment');
  if (segments.length > limits.priceSegments)
    fail(ErrorCode.validation, `body.priceSegments: at most ${limits.priceSegments} segments`);
  const sorted = [...segments].sort((a, b) => minutes(a.start) - minutes(b.start));
  sorted.forEach((s, i) => {
    decimal(`priceSegments.${i}.price`, s.price, limits.price.min, limits.price.max);
    if (minutes(s.end) <= minutes(s.start))
      fail(ErrorCode.validation, `body.priceSegments: ${s.start}–${s.end} must end after it starts`);
    const previous = sorted[i - 1];
    if (!previous && s.start !== '00:00') fail(ErrorCode.validation, 'body.priceSegments: the first segment must start at 00:00');
    if (previous && s.start !== previous.end) {
      fail(
        4,
        minutes(s.start) < minutes(previous.end)
          ? `body.priceSegments: ${previous.start}–${previous.end} and ${s.start}–${s.end} overlap`
          : `body.priceSegments: nothing covers ${previous.end}–${s.start}`,
      );
    }
  });
  if (sorted.at(-1)!.end !== '23:59') fail(ErrorCode.validation, 'body.priceSegments: the last segment must end at 23:59');
  return sorted;
}

function checkCoordinates(latitude: number | null, longitude: number | null) {
  if (latitude === null && longitude === null) return;
  if (latitude === null || longitude === null) fail(ErrorCode.coordinates);
  if (!(Math.abs(latitude!) <= 90) || !(Math.abs(longitude!) <= 180)) fail(ErrorCode.coordinates);
}

export function plantColumns(input: PlantFields, stored: StoredValuation | null): Updateable<PlantsTable> {
  const out: Updateable<PlantsTable> = {};
  if (input.name !== undefined) {
    if (!isPlantName(input.name))
      fail(ErrorCode.validation, `body.name must be ${limits.plantName.min} to ${limits.plantName.max} characters`);
    out.name = input.name.trim();
  }
  decimal('capacity', input.capacity, limits.capacity.min, limits.capacity.max);
  decimal('price', input.price, limits.price.min, limits.price.max);
  decimal('totalInvestment', input.totalInvestment, 0, limits.valueInput);
  decimal('income', input.income, 0, limits.valueInput);
  if (input.commissioningDate) realDate(input.commissioningDate);
  const timezone = input.timezone === undefined ? undefined : canonicalTimezone(input.timezone.trim());
  if (timezone === null) fail(ErrorCode.validation, 'body.timezone must be an IANA time zone (dict/timezones)');
  if (input.currency && !currencies.has(input.currency))
    fail(ErrorCode.validation, 'body.currency must be an ISO 4217 currency (dict/currencies)');

  if (input.latitude !== undefined || input.longitude !== undefined) {
    const latitude = input.latitude !== undefined ? input.latitude : (stored?.latitude ?? null);
    const longitude = input.longitude !== undefined ? input.longitude : (stored?.longitude ?? null);
    checkCoordinates(latitude, longitude);
    out.latitude = latitude;
    out.longitude = longitude;
  }

  if (input.valuationMethod !== undefined || input.priceSegments !== undefined) {
    const method = input.valuationMethod ?? stored?.valuation_method ?? 'constant';
    const segments = input.priceSegments ?? (stored ? (JSON.parse(stored.price_segments) as Segment[]) : []);
    // Segments are kept only for the time-of-use method; another method drops them.
    const kept = method === 'tou' ? checkSegments(segments) : [];
    out.valuation_method = method as (typeof valuationMethods)[number];
    out.price_segments = JSON.stringify(kept);
  }

  const assign = <K extends keyof Updateable<PlantsTable>>(column: K, value: Updateable<PlantsTable>[K] | undefined) => {
    if (value !== undefined) out[column] = value;
  };
  assign('capacity', input.capacity);
  assign('type', input.type);
  assign('commissioning_date', input.commissioningDate);
  assign('address', text(input.address));
  assign('timezone', timezone ?? undefined);
  assign('picture_url', input.picture);
  assign('thumbnail_url', input.thumbnail);
  assign('alias', text(input.alias));
  assign('currency', input.currency);
  assign('price', input.price);
  assign('total_investment', input.totalInvestment);
  assign('income_total', input.income);
  assign('contact_name', text(input.contactName));
  assign('contact_phone', text(input.contactPhone));
  return out;
}
