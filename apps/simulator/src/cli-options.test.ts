import { describe, expect, it } from 'vitest';
import { parseCli } from './cli-options.ts';

describe('simulate command line', () => {
  it('has sensible defaults', () => {
    const o = parseCli([]);
    expect(o).toMatchObject({
      url: 'mqtt://localhost:1883',
      interval: 60,
      speed: 1,
      backfillDays: 0,
      load: false,
      mqttVersion: 4,
    });
    expect(o.gateways).toBeUndefined();
    expect(parseCli([], { MQTT_URL: 'mqtt://broker:1883' }).url).toBe('mqtt://broker:1883');
  });

  it('reads fleet and load options', () => {
    const o = parseCli([
      '--gateways',
      '50',
      '--interval',
      '10',
      '--speed',
      '60',
      '--backfill-days',
      '7',
      '--start',
      '2025-06-01T00:00:00Z',
    ]);
    expect(o).toMatchObject({
      gateways: 50,
      interval: 10,
      speed: 60,
      backfillDays: 7,
      start: Date.parse('2025-06-01T00:00:00Z'),
    });
    expect(parseCli(['--load', '--duration', '5', '--devices-per-gateway', '12', '--rate', '1000'])).toMatchObject({
      load: true,
      duration: 5,
      devicesPerGateway: 12,
      rate: 1000,
    });
  });

  it('refuses nonsense', () => {
    expect(() => parseCli(['--interval', 'soon'])).toThrow(/--interval/);
    expect(() => parseCli(['--devices-per-gateway', '40'])).toThrow(/devices-per-gateway/);
    expect(() => parseCli(['--mqtt-version', '3'])).toThrow();
    expect(() => parseCli(['--what'])).toThrow();
  });
});
