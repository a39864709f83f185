import { describe, expect, it } from 'vitest';
import { inverterTypeKeys } from './api/devices/inverters.ts';
import {
  commTypeName,
  DeviceCounts,
  deviceStateNames,
  deviceStates,
  gatewayProtocols,
  inverterTypeName,
  inverterTypeNames,
} from './deviceNames.ts';

describe('device names', () => {
  it('names every inverter type key in en and es, by key or by type register value alike', () => {
    expect(Object.keys(inverterTypeNames).sort()).toEqual([...inverterTypeKeys].sort());
    for (const [key, name] of Object.entries(inverterTypeNames)) {
      expect(name.en).toBeTruthy();
      expect(name.es).toBeTruthy();
      expect(inverterTypeName(key, 'es')).toBe(name.es);
    }
    expect(inverterTypeName(2, 'en')).toBe('Single-phase');
    expect(inverterTypeName('singlePhase', 'es')).toBe('Monofásico');
    expect(inverterTypeName(null, 'en')).toBe('--');
    expect(inverterTypeName(7, 'en')).toBe('Three-phase');
  });

  it('names every device state, and counts every state', () => {
    expect(deviceStates.every((s) => deviceStateNames[s].en && deviceStateNames[s].es)).toBe(true);
    expect(Object.keys(DeviceCounts.properties).sort()).toEqual(['total', ...deviceStates].sort());
  });

  it('names connections and a gateway’s protocols', () => {
    expect(commTypeName('wifi', 'en')).toBe('Wi-Fi');
    expect(commTypeName('rs485', 'es')).toBe('RS-485');
    expect(commTypeName('lora', 'en')).toBe('lora');
    expect(commTypeName(null, 'en')).toBeNull();
    expect(gatewayProtocols({ protocol: 'a', protocols: ['b'] })).toBe('a');
    expect(gatewayProtocols({ protocol: null, protocols: ['b', 'c'] })).toBe('b, c');
    expect(gatewayProtocols({ protocol: null, protocols: [] })).toBe('--');
  });
});
