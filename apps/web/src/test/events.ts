import type { DataOf, eventsApi } from '@sunfleet/contracts';

/** A row of the event list, as the contract has it. */
export type EventRow = DataOf<typeof eventsApi.listEvents>['list'][number];

/** A row of an event list as the server sends it (a fault of inverter INV<id>, ended), with `extra` over it. */
export function eventRow(id: number, extra: Partial<EventRow> = {}): EventRow {
  return {
    id,
    sn: `INV${id}`,
    code: 'gridOverVoltage',
    level: 'fault',
    source: 'device',
    text: `Grid over-voltage ${id}`,
    startedAt: '2026-05-20T08:00:00.000Z',
    endedAt: '2026-05-20T09:30:00.000Z',
    plantId: 7,
    plantName: 'Casa Marta Rooftop',
    kind: 'inverter',
    alias: 'Roof east',
    pack: null,
    action: 'Ask the grid operator whether the voltage is within limits.',
    acknowledged: false,
    ackAt: null,
    ackBy: null,
    ackNote: null,
    canAck: true,
    ...extra,
  };
}
