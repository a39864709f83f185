/** What every device kind shares: statuses and counts, references, aliases, decoded values, charts and energy bars. */
import Type from 'typebox';
import { DeviceState as State, DeviceCounts as StateCounts } from '../../deviceNames.ts';
import { limits } from '../../limits.ts';
import { Day, Instant, Nullable } from '../../schemas.ts';
import { safeTextPattern } from '../../validation.ts';
import { PlantStatus } from '../plants.ts';
import { Num, W, Wh } from './schemas.ts';

/** Device status as stored: the same values as a plant's. What a badge shows is `DeviceState`. */
export const DeviceStatus = PlantStatus;
/** What a device's badge shows, and what its lists filter and count by: its status, or 'off' while powered off. */
export const DeviceState = State;
export const deviceStatuses = ['normal', 'offline', 'warning', 'fault', 'upgrading'] as const;
export type DeviceStatusName = (typeof deviceStatuses)[number];

/**
 * Counts per state (`DeviceState`, as the badges show) over the visible devices of a kind, with
 * the list's filters except the state: they add up with the list's badges.
 */
export const DeviceCounts = StateCounts;

export const PlantRef = Type.Object({ id: Type.Integer(), name: Type.String(), timezone: Type.String() });
export const GatewayRef = Type.Object({ id: Type.Integer(), sn: Type.String(), alias: Nullable(Type.String()) });
export const CompanyRef = Type.Object({ id: Type.Integer(), name: Type.String() });

/** A device alias: at most 32 bytes of UTF-8, no forbidden characters; empty clears it. */
export const AliasInput = Type.Object(
  {
    alias: Type.String({
      maxLength: limits.deviceAliasBytes,
      pattern: safeTextPattern,
      description: `at most ${limits.deviceAliasBytes} bytes (UTF-8); empty clears the alias`,
    }),
  },
  { additionalProperties: false },
);
export const AliasResult = Type.Object({ sn: Type.String(), alias: Nullable(Type.String()) });

/**
 * One decoded value of the device's protocol: `value` is the engineering value (number) or text;
 * `text` is the label of an enum value in the request language.
 */
export const FieldValue = Type.Object({
  key: Type.String(),
  name: Type.String({ description: 'in the request language' }),
  unit: Nullable(Type.String()),
  value: Type.Unsafe<number | string | null>({ type: ['number', 'string', 'null'] }),
  text: Nullable(Type.String()),
});

/** A fault or warning bit set in the latest upload. */
export const ActiveFault = Type.Object({
  code: Type.String(),
  level: Type.Union([Type.Literal('fault'), Type.Literal('warning'), Type.Literal('info')]),
  text: Type.String({ description: 'in the request language' }),
});

/** One AC phase. */
export const Phase = Type.Object({
  phase: Type.String({ description: 'L1, L2, L3' }),
  voltage: Num('V'),
  current: Num('A'),
  power: W('W, when the device measures it per phase'),
});

/**
 * Which signed power a parameter is, its values in the one convention: grid + import / − export,
 * battery + discharge / − charge; null for any other parameter.
 */
export const PowerFlow = (use: string) =>
  Type.Union([Type.Literal('grid'), Type.Literal('battery'), Type.Null()], {
    description: `signed power, its values in the one convention: grid + import / − export, battery + discharge / − charge (${use}); null for any other parameter`,
  });

/** A curve: `times` and each series' `values` are aligned (null: no value at that time). */
export const ChartSeries = Type.Object({
  key: Type.String({ description: 'parameter key (protocol field key, or pvPower / cellTemperatureMax)' }),
  name: Type.String({ description: 'in the request language' }),
  unit: Nullable(Type.String()),
  flow: PowerFlow('a day chart splits it into its two directions'),
  values: Type.Array(Nullable(Type.Number())),
});
export const DayChart = Type.Object({
  date: Day,
  timezone: Type.String(),
  times: Type.Array(Instant, { description: 'every sample of the day, in time order' }),
  series: Type.Array(ChartSeries),
});

/** Energy of a device over a period (its own counters' day rollups). */
export const DeviceEnergy = Type.Object({
  pv: Wh('Wh generated'),
  load: Wh('Wh consumed by the load'),
  gridImport: Wh('Wh imported from the grid'),
  gridExport: Wh('Wh exported to the grid'),
  charge: Wh('Wh into the battery'),
  discharge: Wh('Wh out of the battery'),
  peakPower: W('W, highest day peak'),
});
export const EnergyPeriod = Type.Union([Type.Literal('day'), Type.Literal('month'), Type.Literal('year'), Type.Literal('total')]);
/** Bars of a month (one per day), a year (per month) or all time (per year); only periods with data. */
export const EnergyBars = Type.Object({
  period: EnergyPeriod,
  date: Day,
  timezone: Type.String(),
  totals: DeviceEnergy,
  bars: Type.Array(
    Type.Object({ label: Type.String({ description: 'YYYY-MM-DD, YYYY-MM or YYYY' }), ...DeviceEnergy.properties }),
  ),
});
/** A day chart with the energy of the day. */
export const DayChartWithEnergy = Type.Object({ ...DayChart.properties, energy: DeviceEnergy });

/** GSM-style bars from RSSI (dBm): ≥ −65 → 4, ≥ −75 → 3, ≥ −85 → 2, ≥ −95 → 1, else 0; null without RSSI. */
export function signalBars(rssi: number | null | undefined): number | null {
  if (rssi === null || rssi === undefined || Number.isNaN(rssi)) return null;
  if (rssi >= -65) return 4;
  if (rssi >= -75) return 3;
  if (rssi >= -85) return 2;
  if (rssi >= -95) return 1;
  return 0;
}
