import { protocolPlan } from '@sunfleet/protocols';
import { describe, expect, it } from 'vitest';
import { pvInputs, pvInputsOf } from './fields.ts';

describe('PV inputs', () => {
  const plan = protocolPlan('sunfleet-hybrid-3p');
  it('a device that reports its MPPT count shows only those inputs', () => {
    const mapped = pvInputsOf(plan).filter((i) => i.kind === 'mppt');
    expect(mapped.length).toBeGreaterThan(2);
    const shown = pvInputs(plan, { mpptCount: 2, pv1Voltage: 300, pv2Voltage: 280, pv3Voltage: 0 });
    expect(shown.filter((i) => i.kind === 'mppt').map((i) => i.name)).toEqual(['PV1', 'PV2']);
    expect(shown[0]).toMatchObject({ voltage: 300 });
  });

  it('without a count, every input the protocol maps', () => {
    const all = pvInputsOf(plan).length;
    expect(pvInputs(plan, { pv1Voltage: 300 })).toHaveLength(all);
    expect(pvInputs(plan, { mpptCount: 0 })).toHaveLength(all);
  });
});
