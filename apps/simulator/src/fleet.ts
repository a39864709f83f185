// A fleet of virtual gateways on one clock: the demo fleet, end-to-end peers, or any number
// of plants against any broker.
import { type Clock, createClock } from './clock.ts';
import { type CommandQuirks, type GatewayOptions, type GatewaySpec, type GatewayStats, VirtualGateway } from './gateway.ts';

/** What each gateway of the fleet runs with (gateway.ts), but for the clock the fleet makes and the fault rates' defaults. */
export interface FleetOptions
  extends Pick<
    GatewayOptions,
    | 'url'
    | 'ca'
    | 'interval'
    | 'seed'
    | 'backfillDays'
    | 'backfillIntervalS'
    | 'protocolVersion'
    | 'clean'
    | 'window'
    | 'physicsStepS'
    | 'restartDelayS'
    | 'reconnectPeriodMs'
    | 'log'
  > {
  gateways: readonly GatewaySpec[];
  /** Simulated seconds per wall second (default 1). */
  speed?: number;
  /** Simulated start time, epoch ms (default now). */
  start?: number;
  /** Faults per device per day (default 0.2). */
  faultRate?: number;
  /** Offline periods per gateway per day, and off-bus periods per device per day (default 0.05). */
  offlineRate?: number;
  /** Gateways connecting at once when starting (default 50). */
  connectConcurrency?: number;
  /** Gateways that misbehave with commands, for tests (see `commandQuirksAt`). */
  commandQuirks?: FleetCommandQuirks;
  /** How upgrades go on every gateway (failure share, link speed, flash and reboot times). */
  upgrades?: GatewayOptions['upgrades'];
}

/**
 * Command misbehaviour across the fleet, by gateway position: the first `late` gateways answer
 * `lateMs` wall ms late, the next `silent` never answer, the next `drop` go offline for `dropS`
 * simulated seconds when their first command arrives (in the middle of a batch).
 */
export interface FleetCommandQuirks {
  late?: number;
  lateMs?: number;
  silent?: number;
  drop?: number;
  dropS?: number;
}

/** The quirks of the gateway at `index` of the fleet, if any. */
export function commandQuirksAt(q: FleetCommandQuirks | undefined, index: number): CommandQuirks | undefined {
  if (!q) return undefined;
  const late = q.late ?? 0;
  const silent = q.silent ?? 0;
  const drop = q.drop ?? 0;
  if (index < late) return { replyDelayMs: q.lateMs ?? 5000 };
  if (index < late + silent) return { silent: true };
  if (index < late + silent + drop) return { offlineOnCommandMs: (q.dropS ?? 60) * 1000 };
  return undefined;
}

/** The gateways' counters the fleet adds up (gateway.ts says what each counts). */
const summed = ['readings', 'sent', 'published', 'events', 'replies', 'failed', 'dropped', 'queued', 'inflight'] as const;

export interface FleetStats extends Pick<GatewayStats, (typeof summed)[number]> {
  gateways: number;
  online: number;
  devices: number;
  /** Connections made again after a gateway's first one. */
  reconnects: number;
  /** Simulated time now, epoch ms. */
  now: number;
}

export interface Fleet {
  readonly clock: Clock;
  readonly gateways: readonly VirtualGateway[];
  /** Connect every gateway (in batches) and start uploading; resolves once each is online or has had 10 s to try. */
  start(): Promise<void>;
  /** Every gateway says offline and disconnects. */
  stop(): Promise<void>;
  stats(): FleetStats;
  gatewayStats(): GatewayStats[];
}

export function createFleet(options: FleetOptions): Fleet {
  const clock = createClock({ speed: options.speed ?? 1, ...(options.start !== undefined ? { start: options.start } : {}) });
  const gateways = options.gateways.map((spec, index) => {
    const quirks = commandQuirksAt(options.commandQuirks, index);
    return new VirtualGateway(spec, {
      url: options.url,
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
      clock,
      interval: options.interval ?? 60,
      seed: options.seed ?? 1,
      faultRate: options.faultRate ?? 0.2,
      offlineRate: options.offlineRate ?? 0.05,
      backfillDays: options.backfillDays ?? 0,
      protocolVersion: options.protocolVersion ?? 4,
      clean: options.clean ?? false,
      window: options.window ?? 32,
      ...(options.backfillIntervalS !== undefined ? { backfillIntervalS: options.backfillIntervalS } : {}),
      ...(options.physicsStepS !== undefined ? { physicsStepS: options.physicsStepS } : {}),
      ...(options.restartDelayS !== undefined ? { restartDelayS: options.restartDelayS } : {}),
      ...(options.reconnectPeriodMs !== undefined ? { reconnectPeriodMs: options.reconnectPeriodMs } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(quirks ? { commandQuirks: quirks } : {}),
      ...(options.upgrades ? { upgrades: options.upgrades } : {}),
    });
  });
  const devices = options.gateways.reduce((n, g) => n + g.devices.length, 0);
  return {
    clock,
    gateways,
    async start() {
      const batch = Math.max(1, options.connectConcurrency ?? 50);
      for (let i = 0; i < gateways.length; i += batch) {
        const group = gateways.slice(i, i + batch);
        for (const g of group) g.start();
        await Promise.all(group.map((g) => g.whenOnline(10_000)));
      }
    },
    async stop() {
      await Promise.all(gateways.map((g) => g.stop()));
    },
    stats() {
      const total: FleetStats = {
        gateways: gateways.length,
        online: 0,
        devices,
        ...(Object.fromEntries(summed.map((k) => [k, 0])) as Pick<FleetStats, (typeof summed)[number]>),
        reconnects: 0,
        now: clock.now(),
      };
      for (const g of gateways) {
        const s = g.stats();
        if (s.online) total.online++;
        for (const k of summed) total[k] += s[k];
        total.reconnects += Math.max(0, s.connects - 1);
      }
      return total;
    },
    gatewayStats() {
      return gateways.map((g) => g.stats());
    },
  };
}
