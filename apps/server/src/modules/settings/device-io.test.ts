import { protocolPlan } from '@sunfleet/protocols';
import { describe, expect, it } from 'vitest';
import { hybridPlant, SimulatedChannel } from '../../../test/sim-channel.ts';
import { DeviceError, readGroups, type Target, writeGroup } from './device-io.ts';

const plan = protocolPlan('sunfleet-hybrid-1p')!;
const target = (online = true): Target => ({ deviceId: 1, sn: 'HY1', unit: 1, gatewaySn: 'GW1', online, plan });

function world() {
  const channel = new SimulatedChannel();
  const plant = hybridPlant(['HY1']);
  channel.attach('GW1', plant);
  return { channel, bank: plant.device('HY1')!.bank, io: { channel, requestedBy: 1 } };
}

describe('setting groups over the command channel', () => {
  it('reads several groups in one command (a family read whole), each with its own fields', async () => {
    const { channel, bank, io } = world();
    const values = await readGroups(io, target(), ['batt', 'workMode', 'smartLoad']);
    expect(channel.sent).toHaveLength(1);
    expect(Object.keys(values)).toEqual(['batt', 'workMode', 'smartLoad']);
    const held = bank.settings();
    for (const group of Object.values(values))
      for (const [key, value] of Object.entries(group)) expect(value, key).toEqual(held[key]);
    expect(Object.keys(values.workMode!)).toEqual(['workMode', 'maxSellPower', 'solarSell', 'timeOfUse']);
  });

  it('writes through the protocol encoder: a 32-bit value lands in its two registers', async () => {
    const { channel, bank, io } = world();
    await writeGroup(io, target(), { maxSellPower: 70_000, solarSell: 1 }, {});
    expect(channel.sent[0]).toMatchObject({ type: 'write', device: 'HY1', writes: [{ fc: 16, addr: 41, regs: '000111700001' }] });
    expect(bank.settings()).toMatchObject({ maxSellPower: 70_000, solarSell: 1 });
  });

  it('sends nothing to an offline gateway or without a channel: 1001', async () => {
    const { channel, io } = world();
    await expect(readGroups(io, target(false), ['batt'])).rejects.toMatchObject(new DeviceError(1001, 'the gateway is offline'));
    await expect(readGroups({ channel: undefined, requestedBy: 1 }, target(), ['batt'])).rejects.toBeInstanceOf(DeviceError);
    expect(channel.sent).toEqual([]);
  });
});
