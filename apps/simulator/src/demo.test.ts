import { DeviceFramePayload, isGatewaySn } from '@sunfleet/contracts';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { makeDemoFleet } from './demo.ts';
import { Plant } from './plant.ts';

describe('the demo fleet', () => {
  it('builds a small varied fleet: 12 plants, about 40 devices, every kind', () => {
    const fleet = makeDemoFleet({ count: 12 });
    expect(fleet).toHaveLength(12);
    const devices = fleet.flatMap((g) => g.devices);
    expect(devices.length).toBeGreaterThanOrEqual(36);
    expect(devices.length).toBeLessThanOrEqual(46);
    expect(new Set(devices.map((d) => d.kind))).toEqual(new Set(['hybrid', 'battery', 'meter', 'string', 'micro', 'weather']));
    expect(new Set(fleet.map((g) => g.plant.type))).toEqual(new Set(['grid', 'ac', 'dc']));
    expect(new Set(fleet.map((g) => g.plant.timezone)).size).toBeGreaterThan(6);
    for (const g of fleet) {
      expect(isGatewaySn(g.sn)).toBe(true);
      expect(g.plant.name!.length).toBeGreaterThanOrEqual(5);
      expect(g.plant.name!.length).toBeLessThanOrEqual(32);
    }
  });

  it('is deterministic, with unique device SNs that fit the protocol and every register map', () => {
    const a = makeDemoFleet({ count: 60, seed: 3 });
    expect(makeDemoFleet({ count: 60, seed: 3 })).toEqual(a);
    const sns = a.flatMap((g) => g.devices.map((d) => d.sn));
    expect(new Set(sns).size).toBe(sns.length);
    const check = Compile(DeviceFramePayload);
    for (const sn of sns) {
      expect(sn.length).toBeLessThanOrEqual(12);
      expect(check.Check({ sn, protocol: 'sunfleet-micro', blocks: [{ fc: 4, addr: 0, regs: '0000' }] })).toBe(true);
    }
    // Every spec builds a plant.
    for (const g of a) expect(new Plant(g.plant, g.devices, { seed: 1 }).devices).toHaveLength(g.devices.length);
  });

  it('takes SNs and secrets from provisioning, and whole specs when given', () => {
    const fleet = makeDemoFleet({
      credentials: [
        { sn: 'GW-A-0001', secret: 'aaa' },
        { sn: 'GW-B-0002', secret: 'bbb' },
      ],
    });
    expect(fleet.map((g) => [g.sn, g.secret])).toEqual([
      ['GW-A-0001', 'aaa'],
      ['GW-B-0002', 'bbb'],
    ]);
    expect(fleet[0]!.devices[0]!.sn).not.toBe(makeDemoFleet({ count: 1 })[0]!.devices[0]!.sn);
    const custom = makeDemoFleet({ credentials: [{ sn: 'GW-C-0003', secret: 'c', devices: [{ kind: 'meter', sn: 'MTR1' }] }] });
    expect(custom[0]!.devices).toEqual([{ kind: 'meter', sn: 'MTR1' }]);
  });
});
