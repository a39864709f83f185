import { mqttLimits } from '@sunfleet/contracts';
import { describe, expect, it } from 'vitest';
import { dataMessage, deviceFrame, eventMessage, HYBRID, METER } from '../../../test/telemetry.ts';
import type { BadFrameReason, BadFrameSink } from './bad-frames.ts';
import { type DeviceReading, readDataMessage, readEventMessage } from './frames.ts';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

function read(payload: Buffer, receivedAt = NOW) {
  const bad: [BadFrameReason, string | undefined][] = [];
  const sink: BadFrameSink = { add: (reason, _sn, detail) => bad.push([reason, detail]) };
  const out: DeviceReading[] = [];
  readDataMessage('GW0001', payload, receivedAt, sink, out);
  return { out, bad, reasons: bad.map(([r]) => r) };
}

/** A message with hand-made device frames (raw blocks). */
const rawMessage = (ts: number, devices: object[]) => Buffer.from(JSON.stringify({ v: 1, seq: 1, ts, devices }));

describe('the edge: frame times', () => {
  it('accepts a frame up to 5 minutes ahead of the server clock and refuses one further ahead', () => {
    expect(read(dataMessage(NOW + mqttLimits.maxFutureMs, [{ sn: 'INV1', protocol: HYBRID }])).out).toHaveLength(1);
    const ahead = read(dataMessage(NOW + mqttLimits.maxFutureMs + 1, [{ sn: 'INV1', protocol: HYBRID }]));
    expect(ahead.out).toEqual([]);
    expect(ahead.reasons).toEqual(['futureTimestamp']);
    expect(read(dataMessage(NOW + 23 * 60 * MIN, [{ sn: 'INV1', protocol: HYBRID }])).reasons).toEqual(['futureTimestamp']);
  });

  it('refuses a frame older than the retention window, and one stamped in 2017', () => {
    expect(mqttLimits.maxAgeMs).toBe(1096 * DAY);
    expect(read(dataMessage(NOW - mqttLimits.maxAgeMs, [{ sn: 'INV1', protocol: HYBRID }])).out).toHaveLength(1);
    const old = read(dataMessage(NOW - mqttLimits.maxAgeMs - 1, [{ sn: 'INV1', protocol: HYBRID }]));
    expect(old.out).toEqual([]);
    expect(old.reasons).toEqual(['staleTimestamp']);
    const y2017 = read(dataMessage(Date.UTC(2017, 8, 1), [{ sn: 'INV1', protocol: HYBRID }]));
    expect(y2017.bad).toEqual([['staleTimestamp', 'frame time 2017-09-01T00:00:00.000Z']]);
  });

  it("judges a device's own time alone: the other devices of the message are kept", () => {
    const r = read(
      dataMessage(NOW, [
        { sn: 'INV1', protocol: HYBRID, ts: NOW - 1097 * DAY },
        { sn: 'INV2', protocol: HYBRID, ts: NOW + 6 * MIN },
        { sn: 'INV3', protocol: HYBRID },
      ]),
    );
    expect(r.out.map((d) => d.sn)).toEqual(['INV3']);
    expect(r.reasons).toEqual(['staleTimestamp', 'futureTimestamp']);
  });

  it('applies the same window to gateway events', () => {
    const sink = (reasons: BadFrameReason[]): BadFrameSink => ({ add: (reason) => reasons.push(reason) });
    const reasons: BadFrameReason[] = [];
    const event = (ts: number) => eventMessage({ ts, code: 'power.loss', level: 'warning', active: true });
    expect(readEventMessage('GW0001', event(NOW), NOW, sink(reasons))).not.toBeNull();
    expect(readEventMessage('GW0001', event(NOW + 6 * MIN), NOW, sink(reasons))).toBeNull();
    expect(readEventMessage('GW0001', event(NOW - 1097 * DAY), NOW, sink(reasons))).toBeNull();
    expect(reasons).toEqual(['futureTimestamp', 'staleTimestamp']);
  });
});

describe('the edge: register blocks', () => {
  it("refuses a device frame with a block outside its protocol's map, and keeps the message's other devices", () => {
    const good = deviceFrame({ sn: 'MET1', protocol: METER });
    const outside = { sn: 'MET2', protocol: METER, blocks: [...good.blocks, { fc: 4, addr: 1000, regs: '0001'.repeat(10) }] };
    const onlyOutside = { sn: 'MET3', protocol: METER, blocks: [{ fc: 3, addr: 40000, regs: '0000'.repeat(4) }] };
    const r = read(rawMessage(NOW, [outside, good, onlyOutside]));
    expect(r.out.map((d) => d.sn)).toEqual(['MET1']);
    expect(r.bad).toEqual([
      ['unmappedRegisters', 'device MET2: fc 4 registers 1000..1009 are not in sunfleet-meter-3p'],
      ['unmappedRegisters', 'device MET3: fc 3 registers 40000..40003 are not in sunfleet-meter-3p'],
    ]);
  });

  it('accepts a block that covers the map only in part (a wider read than needed)', () => {
    const frame = deviceFrame({ sn: 'MET1', protocol: METER });
    const energy = frame.blocks.find((b) => b.fc === 4 && b.addr === 100)!;
    const wider = { ...energy, addr: 96, regs: `${'0000'.repeat(4)}${energy.regs}` };
    const r = read(rawMessage(NOW, [{ ...frame, blocks: frame.blocks.map((b) => (b === energy ? wider : b)) }]));
    expect(r.bad).toEqual([]);
    expect(r.out[0]!.counters).toEqual([300_000, 400_000]);
  });
});

describe('the edge: "not available" values', () => {
  it('reads a counter at the u32 maximum as absent and keeps the rest of the frame', () => {
    const frame = deviceFrame({ sn: 'MET1', protocol: METER, values: { activePower: 1200, exportEnergy: 400 } });
    const energy = frame.blocks.find((b) => b.fc === 4 && b.addr === 100)!;
    energy.regs = `ffffffff${energy.regs.slice(8)}`; // importEnergy = 0xFFFFFFFF
    const r = read(rawMessage(NOW, [frame]));
    expect(r.bad).toEqual([]);
    const reading = r.out[0]!;
    expect(reading.counters).toEqual([null, 400_000]); // import absent, export in Wh
    expect(reading.sample).toEqual([1200, null, 400_000]);
    expect(reading.power).toBe(1200);
    const latest = JSON.parse(reading.latest);
    expect(latest).toMatchObject({ exportEnergy: 400, activePower: 1200 });
    expect(latest).not.toHaveProperty('importEnergy'); // latest values list what the frame has
  });
});
