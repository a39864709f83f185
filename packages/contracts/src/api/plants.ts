/**
 * Plants, one file per resource in `plants/`: list, create and edit, sharing and transfer,
 * gateway binding, counts, map, events, transfer requests. Power is in W and energy in Wh (the web's power
 * formatter divides by 1000 or a million). A plant the caller cannot see answers 700; a plant
 * the caller sees but may not change answers 2.
 */
export * from './plants/counts.ts';
export * from './plants/events.ts';
export * from './plants/gateways.ts';
export * from './plants/model.ts';
export * from './plants/plant.ts';
export * from './plants/sharing.ts';
export * from './plants/transfers.ts';
