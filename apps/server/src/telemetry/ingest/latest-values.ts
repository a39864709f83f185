/**
 * A frame's values as the JSON object of device_latest.values: non-null values only (settings
 * and fields absent from the frame are null in every frame), without the parts the device does
 * not have (see KindSpec.absentKeys). Written for every frame, so keys are quoted once per
 * protocol (measured: 2 µs instead of 5 µs per hybrid inverter frame).
 */
import type { ProtocolPlan } from '@sunfleet/protocols';
import type { Values } from './kinds.ts';
import { getOrAdd } from './maps.ts';

interface Serializer {
  keys: string[];
  /** `"key":` of each field. */
  quoted: string[];
  /** Per set of absent keys: which fields to leave out. */
  masks: Map<ReadonlySet<string>, boolean[]>;
}

const serializers = new WeakMap<ProtocolPlan, Serializer>();

function serializer(plan: ProtocolPlan, values: Values): Serializer {
  let s = serializers.get(plan);
  if (!s) {
    const keys = Object.keys(values); // every decoded frame has every field, in one order
    s = { keys, quoted: keys.map((k) => `${JSON.stringify(k)}:`), masks: new Map() };
    serializers.set(plan, s);
  }
  return s;
}

export function latestValuesJson(plan: ProtocolPlan, values: Values, absent: ReadonlySet<string> | null): string {
  const { keys, quoted, masks } = serializer(plan, values);
  let skip: boolean[] | undefined;
  if (absent) {
    skip = getOrAdd(masks, absent, () => keys.map((k) => absent.has(k)));
  }
  let out = '';
  for (let i = 0; i < keys.length; i++) {
    const v = values[keys[i]!];
    if (v === null || v === undefined || skip?.[i]) continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) continue;
      out += `${out ? ',' : '{'}${quoted[i]}${v}`;
    } else out += `${out ? ',' : '{'}${quoted[i]}${JSON.stringify(v)}`;
  }
  return out ? `${out}}` : '{}';
}
