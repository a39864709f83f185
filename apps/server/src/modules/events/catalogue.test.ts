import { protocols } from '@sunfleet/protocols';
import { describe, expect, it } from 'vitest';
import { ruleEventCodes } from '../../../test/ingest.ts';
import { actionKey, actions, packOf, suggestedAction } from './catalogue.ts';

describe('suggested actions', () => {
  it('has an entry in both languages for every fault and warning bit of the shipped protocols and every server rule', () => {
    const codes = new Set<string>(['offline', 'zeroOutput', 'batteryOverTemperature']);
    for (const name of ruleEventCodes) if (name !== 'gatewayOffline') codes.add(name);
    for (const definition of Object.values(protocols)) {
      for (const field of definition.fields) for (const bit of Object.values(field.bits ?? {})) codes.add(bit.code);
    }
    expect(codes.size).toBeGreaterThan(50);
    const missing = [...codes].filter((c) => !actions[actionKey(c)]);
    expect(missing).toEqual([]);
    for (const text of Object.values(actions)) {
      expect(text.en.length).toBeGreaterThan(10);
      expect(text.es.length).toBeGreaterThan(10);
      expect(text.es).not.toBe(text.en);
    }
  });

  it('shares one entry for a code of every battery pack and knows the pack', () => {
    expect(actionKey('pack7.shortCircuit')).toBe('pack.shortCircuit');
    expect(packOf('pack7.shortCircuit')).toBe(7);
    expect(packOf('overTemperature')).toBeNull();
    expect(suggestedAction('pack2.overTemperature', 'fault', 'en')).not.toBe(suggestedAction('overTemperature', 'fault', 'en'));
  });

  it('tells a gateway offline from a device offline, and falls back to the level for unknown codes', () => {
    expect(suggestedAction('offline', 'warning', 'en', 'gateway')).toMatch(/internet connection/);
    expect(suggestedAction('offline', 'warning', 'en')).toMatch(/cable to the gateway/);
    expect(suggestedAction('vendorE42', 'fault', 'es')).toMatch(/contacte con su instalador/);
    expect(suggestedAction('vendorI1', 'info', 'en')).toBe('No action needed.');
  });
});
