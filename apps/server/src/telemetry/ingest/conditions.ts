/**
 * What a device's newer frame changes in its open conditions: fault and warning bits set or
 * cleared, and the server rules (battery over temperature, zero PV output in daylight while other
 * inverters of the plant produce; energy counter readings left out as implausible). Each transition becomes an event change; the device entry's
 * conditions follow, and its status is derived from them (status.ts).
 */
import { type GatewayEventMessage, gatewayEventText } from '@sunfleet/contracts';
import { protocolPlan } from '@sunfleet/protocols';
import { batteryOverTemperature, type EventChange, ruleEvents, ruleLimits } from './events.ts';
import type { DeviceReading } from './frames.ts';
import type { DeviceEntry, GatewayEntry, Registry } from './registry.ts';
import type { DeviceCounterRefusal } from './rollup-store.ts';
import { sunElevation } from './solar.ts';

type RuleCode = 'zeroOutput' | 'batteryOverTemperature' | 'counterImplausible';

function setRule(device: DeviceEntry, gw: GatewayEntry, code: RuleCode, on: boolean, at: number, changes: EventChange[]) {
  if (device.conditions.has(code) === on) return;
  if (on) {
    const rule = ruleEvents[code];
    device.conditions.set(code, { level: rule.level, source: 'rule' });
    changes.push({ open: true, ...subject(device, gw), source: 'rule', code, level: rule.level, en: rule.en, es: rule.es, at });
  } else {
    device.conditions.delete(code);
    changes.push({ open: false, sn: device.sn, code, at });
  }
}

const subject = (device: DeviceEntry, gw: GatewayEntry) => ({
  plantId: device.plantId,
  gatewayId: gw.id,
  deviceId: device.id,
  sn: device.sn,
});

/** Fault and warning bits of the frame against the device's open bit conditions. */
function foldBits(device: DeviceEntry, gw: GatewayEntry, r: DeviceReading, changes: EventChange[]): void {
  const faults = r.faults;
  if (faults.length === 0 && device.conditions.size === 0) return;
  for (const code of faults) {
    if (device.conditions.has(code)) continue;
    const meaning = protocolPlan(r.protocol)?.bit(code);
    const level = meaning?.level ?? 'warning';
    device.conditions.set(code, { level, source: 'device' });
    changes.push({
      open: true,
      ...subject(device, gw),
      source: 'device',
      code,
      level,
      en: meaning?.en ?? `Status bit ${code}`,
      es: meaning?.es ?? `Bit de estado ${code}`,
      at: r.ts,
    });
  }
  for (const [code, c] of device.conditions) {
    if (c.source === 'device' && !faults.includes(code)) {
      device.conditions.delete(code);
      changes.push({ open: false, sn: device.sn, code, at: r.ts });
    }
  }
}

function producing(d: DeviceEntry): boolean {
  if (d.pvPowerW === null) return false;
  const threshold = d.ratedPowerW ? d.ratedPowerW * ruleLimits.producingShare : ruleLimits.producingFallbackW;
  return d.pvPowerW > threshold;
}

/** Zero PV output (`pv`) in daylight while another inverter of the same plant produces. */
function zeroOutput(device: DeviceEntry, pv: number, gw: GatewayEntry, ts: number, registry: Registry): boolean {
  if (pv > ruleLimits.zeroW || device.plantId === null) return false;
  if (
    gw.latitude !== null &&
    gw.longitude !== null &&
    sunElevation(gw.latitude, gw.longitude, ts) < ruleLimits.daylightElevation
  ) {
    return false;
  }
  for (const peer of registry.plantInverters(device.plantId)) {
    if (peer !== device && Math.abs(peer.pvTs - ts) <= ruleLimits.peerWindowMs && producing(peer)) return true;
  }
  return false;
}

/** Apply a newer frame of the device (frames of a device come in time order). */
export function foldFrame(
  device: DeviceEntry,
  gw: GatewayEntry,
  r: DeviceReading,
  registry: Registry,
  changes: EventChange[],
): void {
  foldBits(device, gw, r, changes);
  const hot = batteryOverTemperature(r.batteryTemperatureC, device.conditions.has('batteryOverTemperature'));
  if (hot !== null) setRule(device, gw, 'batteryOverTemperature', hot, r.ts, changes);
  if (device.kind === 'inverter' && r.pvPowerW !== null) {
    setRule(device, gw, 'zeroOutput', zeroOutput(device, r.pvPowerW, gw, r.ts, registry), r.ts, changes);
  }
}

/**
 * Note the PV output of a batch's newer frames before any rule runs, so that inverters of one
 * plant reporting in the same batch see each other's output whatever their order.
 */
export function notePvOutput(device: DeviceEntry, r: DeviceReading): void {
  if (device.kind === 'inverter' && r.pvPowerW !== null && r.ts >= device.pvTs) {
    device.pvPowerW = r.pvPowerW;
    device.pvTs = r.ts;
  }
}

/** A gateway-reported event about the gateway itself or one of its devices. */
export function foldGatewayEvent(
  gw: GatewayEntry,
  device: DeviceEntry | undefined,
  e: GatewayEventMessage,
  changes: EventChange[],
): void {
  const sn = device?.sn ?? gw.sn;
  if (e.active) {
    const text = gatewayEventText(e.code, e.text);
    if (device && !device.conditions.has(e.code)) device.conditions.set(e.code, { level: e.level, source: 'gateway' });
    changes.push({
      open: true,
      plantId: device?.plantId ?? gw.plantId,
      gatewayId: gw.id,
      deviceId: device?.id ?? null,
      sn,
      source: 'gateway',
      code: e.code,
      level: e.level,
      en: text.en,
      es: text.es,
      at: e.ts,
    });
  } else {
    if (device?.conditions.get(e.code)?.source === 'gateway') device.conditions.delete(e.code);
    changes.push({ open: false, sn, code: e.code, at: e.ts });
  }
}

/**
 * Energy counter readings the day rollups left out (rollups.ts `counterProblem`): one open
 * data-quality event per device however many readings are refused; it closes on a plausible
 * counter reading `ruleLimits.counterQuietMs` after the last refused one. Returns the devices
 * whose conditions changed.
 */
export function foldCounterRefusals(
  stored: readonly { r: DeviceReading; device: DeviceEntry; gw: GatewayEntry }[],
  refused: readonly DeviceCounterRefusal[],
  changes: EventChange[],
): Map<DeviceEntry, GatewayEntry> {
  const changed = new Map<DeviceEntry, GatewayEntry>();
  const refusedDevices = new Set<number>();
  if (refused.length > 0) {
    const byId = new Map(stored.map((s) => [s.device.id, s]));
    for (const x of refused) {
      const s = byId.get(x.deviceId);
      if (!s) continue;
      refusedDevices.add(x.deviceId);
      if (x.ts > s.device.counterRefusedTs) s.device.counterRefusedTs = x.ts;
      if (!s.device.conditions.has('counterImplausible')) {
        setRule(s.device, s.gw, 'counterImplausible', true, x.ts, changes);
        changed.set(s.device, s.gw);
      }
    }
  }
  for (const { r, device, gw } of stored) {
    if (!device.conditions.has('counterImplausible') || refusedDevices.has(device.id)) continue;
    if (r.counters.every((c) => c === null) || r.ts - device.counterRefusedTs < ruleLimits.counterQuietMs) continue;
    setRule(device, gw, 'counterImplausible', false, r.ts, changes);
    changed.set(device, gw);
  }
  return changed;
}
