import { describe, expect, it } from 'vitest';
import { type EnergyFlow, flowLinks } from './energyFlow.ts';

const flow = (over: Partial<EnergyFlow> = {}): EnergyFlow => ({
  pv: 3200,
  load: 1800,
  grid: -900,
  battery: -500,
  soc: 64,
  hasPv: true,
  hasBattery: true,
  hasGrid: true,
  hasLoad: true,
  at: '2026-05-01T10:00:00.000Z',
  ...over,
});
const byNode = (links: ReturnType<typeof flowLinks>) => Object.fromEntries(links.map((l) => [l.node, l]));

describe('energy flow directions (grid + import / − export; battery + discharge / − charge)', () => {
  it('sunny noon on a storage plant: PV in, exporting, charging, load out', () => {
    const links = byNode(flowLinks(flow(), 2));
    expect(links.pv).toEqual({ node: 'pv', direction: 'in', state: 'producing', watts: 3200 });
    expect(links.grid).toEqual({ node: 'grid', direction: 'out', state: 'exporting', watts: 900 });
    expect(links.battery).toEqual({ node: 'battery', direction: 'out', state: 'charging', watts: 500 });
    expect(links.load).toEqual({ node: 'load', direction: 'out', state: 'consuming', watts: 1800 });
  });

  it('evening: importing from the grid and discharging the battery flow into the plant', () => {
    const links = byNode(flowLinks(flow({ pv: 0, grid: 1200, battery: 2500, load: 3700 }), 1));
    expect(links.pv?.direction).toBe('idle');
    expect(links.pv?.state).toBe('idle');
    expect(links.grid).toMatchObject({ direction: 'in', state: 'importing', watts: 1200 });
    expect(links.battery).toMatchObject({ direction: 'in', state: 'discharging', watts: 2500 });
  });

  it('values under 5 W are idle; missing values are unknown', () => {
    const links = byNode(flowLinks(flow({ grid: 3, battery: null }), 2));
    expect(links.grid).toMatchObject({ direction: 'idle', state: 'idle' });
    expect(links.battery).toEqual({ node: 'battery', direction: 'idle', state: 'unknown', watts: null });
  });

  it('nodes the plant lacks are left out; a grid-tied plant shows no battery even if one reports', () => {
    expect(flowLinks(flow({ hasBattery: false }), 2).map((l) => l.node)).toEqual(['pv', 'grid', 'load']);
    expect(flowLinks(flow(), 0).map((l) => l.node)).toEqual(['pv', 'grid', 'load']);
    expect(flowLinks(flow({ hasGrid: false, hasLoad: false }), 1).map((l) => l.node)).toEqual(['pv', 'battery']);
  });
});
