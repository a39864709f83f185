// The protocols this project ships, by id (what a gateway names in its telemetry).
import type { DeviceKind, LocalizedText, ProtocolDefinition } from '../definition.ts';
import { compile, type ProtocolPlan } from '../plan.ts';
import { batteryPack } from './battery-pack.ts';
import { hybridInverter1p, hybridInverter3p } from './hybrid-inverter.ts';
import { microInverter } from './micro-inverter.ts';
import { mtStringInverter } from './mt-inverter.ts';
import { pcsInverter } from './pcs-inverter.ts';
import { stringInverter } from './string-inverter.ts';
import { threePhaseMeter } from './three-phase-meter.ts';
import { uneetMicroInverter } from './uneet-micro.ts';
import { weatherStation } from './weather-station.ts';

export {
  batteryPack,
  hybridInverter1p,
  hybridInverter3p,
  microInverter,
  mtStringInverter,
  pcsInverter,
  stringInverter,
  threePhaseMeter,
  uneetMicroInverter,
  weatherStation,
};

export const protocols: Readonly<Record<string, ProtocolDefinition>> = Object.freeze(
  Object.fromEntries(
    [
      hybridInverter1p,
      hybridInverter3p,
      stringInverter,
      microInverter,
      mtStringInverter,
      pcsInverter,
      uneetMicroInverter,
      batteryPack,
      threePhaseMeter,
      weatherStation,
    ].map((d) => [d.id, d]),
  ),
);

export interface ProtocolSummary {
  id: string;
  name: LocalizedText;
  kind: DeviceKind;
  version: string;
}

/** For the dict/protocols API. */
export function listProtocols(): ProtocolSummary[] {
  return Object.values(protocols).map(({ id, name, kind, version }) => ({ id, name, kind, version }));
}

export function getProtocol(id: string): ProtocolDefinition | undefined {
  return Object.hasOwn(protocols, id) ? protocols[id] : undefined;
}

const plans = new Map<string, ProtocolPlan>();

/** The compiled plan of a shipped protocol, compiled once and kept. */
export function protocolPlan(id: string): ProtocolPlan | undefined {
  let plan = plans.get(id);
  if (!plan) {
    const definition = getProtocol(id);
    if (!definition) return undefined;
    plan = compile(definition);
    plans.set(id, plan);
  }
  return plan;
}
