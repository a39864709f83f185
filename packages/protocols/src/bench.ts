// Decoder micro-benchmark (not a test): decodes a realistic hybrid-inverter upload (every
// realtime block) over and over on one core and prints frames per second.
//   npx tsx packages/protocols/src/bench.ts [frames]

import type { ProtocolDefinition } from './definition.ts';
import { hybridInverter3p } from './definitions/hybrid-inverter.ts';
import { threePhaseMeter } from './definitions/three-phase-meter.ts';
import { compile } from './plan.ts';

const frames = Number(process.argv[2] ?? 1_000_000);

const hybridValues = {
  runningState: 2,
  pv1Voltage: 385.2,
  pv1Current: 9.8,
  pv1Power: 3775,
  pv2Voltage: 391.4,
  pv2Current: 9.6,
  pv2Power: 3757,
  pv3Voltage: 0,
  pv3Current: 0,
  pv3Power: 0,
  pv4Voltage: 0,
  pv4Current: 0,
  pv4Power: 0,
  gridVoltageL1: 231.2,
  gridVoltageL2: 229.8,
  gridVoltageL3: 232.5,
  gridCurrentL1: 4.12,
  gridCurrentL2: 4.05,
  gridCurrentL3: 4.2,
  gridFrequency: 50.01,
  gridActivePower: 2850,
  gridReactivePower: -120,
  powerFactor: 0.998,
  activePower: 7300,
  loadPower: 1650,
  batteryVoltage: 52.34,
  batteryCurrent: -52.1,
  batteryPower: -2727,
  batterySoc: 64,
  batteryTemperature: 24.5,
  inverterTemperature: 41.2,
  heatsinkTemperature: 47.9,
  faultBits: 0,
  warningBits: 0,
  pvEnergyToday: 31.4,
  pvEnergyTotal: 18234.6,
  gridImportEnergyToday: 2.1,
  gridImportEnergyTotal: 4021.3,
  gridExportEnergyToday: 12.9,
  gridExportEnergyTotal: 9120.4,
  batteryChargeEnergyToday: 8.2,
  batteryChargeEnergyTotal: 3611.1,
  batteryDischargeEnergyToday: 6.9,
  batteryDischargeEnergyTotal: 3300.7,
  loadEnergyToday: 19.7,
  loadEnergyTotal: 8105.5,
};

function bench(definition: ProtocolDefinition, values: Record<string, number>): void {
  const plan = compile(definition);
  // Plain arrays, as a JSON-parsed MQTT payload carries them.
  const blocks = plan.encode(values, { groups: ['realtime'] }).map((b) => ({ ...b, registers: [...b.registers] }));
  const registers = blocks.reduce((n, b) => n + b.registers.length, 0);
  const fields = definition.fields.filter((f) => f.group === 'realtime').length;
  let checksum = 0;
  for (let i = 0; i < 50_000; i++) checksum += plan.decode(blocks).faults.length; // warm up the JIT
  const start = process.hrtime.bigint();
  for (let i = 0; i < frames; i++) {
    const frame = plan.decode(blocks);
    checksum += frame.faults.length + (frame.values.activePower as number);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const perSecond = Math.round(frames / seconds);
  console.log(
    `${definition.id}: ${perSecond.toLocaleString('en')} frames/s on one core ` +
      `(${blocks.length} blocks, ${registers} registers, ${fields} fields, ${((seconds / frames) * 1e6).toFixed(2)} µs/frame, checksum ${checksum > 0})`,
  );
}

bench(hybridInverter3p, hybridValues);
bench(threePhaseMeter, {
  voltageL1: 230.1,
  voltageL2: 229.4,
  voltageL3: 231.8,
  activePower: 4200,
  frequency: 50,
  importEnergy: 1234.56,
});
