import { describe, expect, it } from 'vitest';
import { type DeviceEventRow, eventFields, toDeviceEvent, toRecentEvent } from './mapper.ts';

const row: DeviceEventRow = {
  id: 7,
  sn: 'GW-1',
  code: 'offline',
  level: 'fault',
  source: 'rule',
  text_en: 'Gateway offline',
  text_es: 'Pasarela sin conexión',
  started_at: Date.UTC(2025, 2, 30, 1, 0, 0),
  ended_at: null,
  plant_id: 3,
  device_id: null,
  gateway_id: 5,
  acked_at: null,
  ack_note: null,
  plant_name: 'Roof',
  device_kind: null,
  device_alias: null,
  gateway_alias: 'Main gateway',
  acker_nickname: null,
  acker_name: null,
};

describe('event mapper', () => {
  it('maps the event itself: text in the language, instants as ISO UTC, fields in the API order', () => {
    expect(JSON.stringify(eventFields(row, 'es'))).toBe(
      '{"id":7,"sn":"GW-1","code":"offline","level":"fault","source":"rule","text":"Pasarela sin conexión","startedAt":"2025-03-30T01:00:00.000Z","endedAt":null}',
    );
  });

  it("maps the overview's last hour with its plant and without the source", () => {
    expect(JSON.stringify(toRecentEvent({ ...row, plant_name: 'Roof', ended_at: Date.UTC(2025, 2, 30, 1, 30) }, 'en'))).toBe(
      '{"id":7,"plantId":3,"plantName":"Roof","sn":"GW-1","code":"offline","level":"fault","text":"Gateway offline","startedAt":"2025-03-30T01:00:00.000Z","endedAt":"2025-03-30T01:30:00.000Z"}',
    );
  });

  it('names a gateway event by the gateway, and offers acknowledgement only where the caller operates', () => {
    const e = toDeviceEvent(row, 'en', new Set([3]));
    expect(e).toMatchObject({ kind: 'gateway', alias: 'Main gateway', pack: null, acknowledged: false, canAck: true });
    expect(toDeviceEvent(row, 'en', new Set()).canAck).toBe(false);
    const acked = toDeviceEvent({ ...row, acked_at: Date.UTC(2025, 2, 30, 2), acker_name: 'Ana' }, 'en', new Set([3]));
    expect(acked).toMatchObject({ acknowledged: true, ackAt: '2025-03-30T02:00:00.000Z', ackBy: 'Ana', canAck: false });
  });
});
