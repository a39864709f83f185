import { ErrorCode, registersToHex } from '@sunfleet/contracts';
import { settingGroupFields, settingGroupReads, supportedSettings, validateSettingValues } from '@sunfleet/protocols';
import { describe, expect, it } from 'vitest';
import type { DeviceSpec } from '../../../../simulator/src/plant.ts';
import { hybridPlant, SimulatedChannel, simPlant } from '../../../test/sim-channel.ts';
import { DeviceError, readGroups, type Target, writeGroup } from './device-io.ts';

const HYBRID = 'sunfleet-hybrid-1p';
const target = (online = true, protocolId = HYBRID): Target => ({
  deviceId: 1,
  sn: 'HY1',
  unit: 1,
  gatewaySn: 'GW1',
  online,
  protocolId,
});

function world(devices?: DeviceSpec[]) {
  const channel = new SimulatedChannel();
  const plant = devices ? simPlant(devices) : hybridPlant(['HY1']);
  channel.attach('GW1', plant);
  return { channel, bank: plant.device('HY1')!.bank, io: { channel, requestedBy: 1 } };
}

describe('setting groups over the command channel', () => {
  it('reads several groups in one command (a family read whole), each with its own fields', async () => {
    const { channel, bank, io } = world();
    const groups = supportedSettings(HYBRID)!.groups.slice(0, 3);
    const values = await readGroups(io, target(), groups);
    expect(channel.sent).toHaveLength(1);
    expect(channel.sent[0]!.reads).toEqual(
      settingGroupReads(HYBRID, groups)!.map((r) => ({ fc: r.functionCode, addr: r.address, count: r.count })),
    );
    expect(Object.keys(values)).toEqual(groups);
    const held = bank.settings();
    for (const group of groups) {
      expect(Object.keys(values[group]!)).toEqual(settingGroupFields(HYBRID, group)!.map((f) => f.key));
      for (const [key, value] of Object.entries(values[group]!)) expect(value, key).toEqual(held[key]);
    }
  });

  it('sends the writes the values were checked into: a 32-bit value lands in its two registers', async () => {
    // The single-phase string inverter's energy presets are the setting fields two registers wide.
    const protocolId = 'sunfleet-string-1p';
    const { channel, bank, io } = world([{ kind: 'string', sn: 'HY1', unit: 1, phases: 1, ratedW: 5000, pvKwp: 5.5 }]);
    const [group, field] = supportedSettings(protocolId)!
      .groups.flatMap((g) => settingGroupFields(protocolId, g)!.map((f) => [g, f] as const))
      .filter(([, f]) => f.access === 'rw' && f.count === 2 && !f.enum)
      .sort(([, a], [, b]) => b.max! - a.max!)[0]!;
    const value = field.max!;
    const checked = validateSettingValues(protocolId, group, { [field.key]: value });
    if (!checked.ok) throw new Error('refused');
    // Both registers carry part of the value.
    expect(checked.writes[0]!.registers.every((r) => r !== 0)).toBe(true);
    await writeGroup(io, target(true, protocolId), checked.writes);
    expect(channel.sent[0]).toMatchObject({
      type: 'write',
      device: 'HY1',
      writes: checked.writes.map((w) => ({ fc: w.functionCode, addr: w.address, regs: registersToHex(w.registers) })),
    });
    expect(checked.writes.map((w) => w.registers.length)).toEqual([2]);
    expect(bank.settings()[field.key]).toBe(value);
  });

  it('sends nothing to an offline gateway or without a channel: 1001', async () => {
    const { channel, io } = world();
    await expect(readGroups(io, target(false), ['batt'])).rejects.toMatchObject(
      new DeviceError(ErrorCode.deviceOffline, 'the gateway is offline'),
    );
    await expect(readGroups({ channel: undefined, requestedBy: 1 }, target(), ['batt'])).rejects.toBeInstanceOf(DeviceError);
    expect(channel.sent).toEqual([]);
  });
});
