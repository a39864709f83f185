import { describe, expect, it } from 'vitest';
import { parseCli } from './cli-options.ts';
import { commandQuirksAt } from './fleet.ts';

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

  it('parses the command misbehaviour options and places them by gateway position', () => {
    const { commandQuirks } = parseCli([
      '--late-gateways',
      '2',
      '--late-ms',
      '800',
      '--silent-gateways',
      '1',
      '--drop-gateways',
      '1',
    ]);
    expect(commandQuirks).toEqual({ late: 2, lateMs: 800, silent: 1, drop: 1, dropS: 60 });
    expect([0, 1, 2, 3, 4].map((i) => commandQuirksAt(commandQuirks, i))).toEqual([
      { replyDelayMs: 800 },
      { replyDelayMs: 800 },
      { silent: true },
      { offlineOnCommandMs: 60_000 },
      undefined,
    ]);
    expect(parseCli([]).commandQuirks).toEqual({ late: 0, lateMs: 5000, silent: 0, drop: 0, dropS: 60 });
  });

  it('refuses nonsense', () => {
    expect(() => parseCli(['--silent-gateways', '-1'])).toThrow(/silent-gateways/);
    expect(() => parseCli(['--interval', 'soon'])).toThrow(/--interval/);
    expect(() => parseCli(['--devices-per-gateway', '40'])).toThrow(/devices-per-gateway/);
    expect(() => parseCli(['--mqtt-version', '3'])).toThrow();
    expect(() => parseCli(['--what'])).toThrow();
  });
});
