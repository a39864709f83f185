/**
 * The energy-flow diagram's logic: which nodes a plant shows and which way power moves on each
 * line. Signs follow the contract (plantEnergy.ts): grid + import / − export, battery
 * + discharge / − charge. PV only produces and the load only consumes.
 */
import type { DataOf, plantEnergyApi } from '@sunfleet/contracts';

export type EnergyFlow = DataOf<typeof plantEnergyApi.plantEnergyFlow>;
export type FlowNode = 'pv' | 'grid' | 'battery' | 'load';
/** `in`: from the node to the plant's hub; `out`: from the hub to the node; `idle`: no flow. */
export type FlowDirection = 'in' | 'out' | 'idle';
/** What the node is doing, for its caption. */
export type FlowState = 'producing' | 'consuming' | 'importing' | 'exporting' | 'charging' | 'discharging' | 'idle' | 'unknown';

export interface FlowLink {
  node: FlowNode;
  direction: FlowDirection;
  state: FlowState;
  /** Magnitude in W; null when the value is missing. */
  watts: number | null;
}

/** Below this many watts a line counts as still (measurement noise). */
export const IDLE_WATTS = 5;

/** Plant types (dict/plantTypes): 0 grid-tied, 1 storage AC-coupled, 2 storage DC-coupled. */
export const isStoragePlant = (type: number | null | undefined) => type === 1 || type === 2;

function link(node: FlowNode, watts: number | null, positive: FlowState, negative: FlowState): FlowLink {
  if (watts === null || !Number.isFinite(watts)) return { node, direction: 'idle', state: 'unknown', watts: null };
  if (Math.abs(watts) < IDLE_WATTS) return { node, direction: 'idle', state: 'idle', watts: Math.abs(watts) };
  const into = watts > 0; // positive = power flows from the node into the plant
  return { node, direction: into ? 'in' : 'out', state: into ? positive : negative, watts: Math.abs(watts) };
}

/**
 * The lines to draw, in a fixed order (PV, grid, battery, load). A node is left out when the
 * plant lacks it; the battery also needs a storage plant type.
 */
export function flowLinks(flow: EnergyFlow, plantType: number | null | undefined): FlowLink[] {
  const out: FlowLink[] = [];
  if (flow.hasPv) out.push(link('pv', flow.pv === null ? null : Math.max(0, flow.pv), 'producing', 'producing'));
  if (flow.hasGrid) out.push(link('grid', flow.grid, 'importing', 'exporting'));
  if (flow.hasBattery && isStoragePlant(plantType)) out.push(link('battery', flow.battery, 'discharging', 'charging'));
  if (flow.hasLoad) out.push(link('load', flow.load === null ? null : -Math.abs(flow.load), 'consuming', 'consuming'));
  return out;
}
