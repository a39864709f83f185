/** Process health, stored uploads, and the figures an operator reads (metrics and the status page). */
import Type from 'typebox';
import { endpoint } from '../endpoint.ts';
import { Nullable } from '../schemas.ts';

export const health = endpoint({
  method: 'GET',
  path: '/healthz',
  access: 'public',
  summary: 'Liveness and store reachability',
  data: Type.Object({ status: Type.Literal('ok'), store: Type.String(), uptimeSec: Type.Number() }),
});

/** A store page of the mobile app, or null when that store is not configured (the page leaves it out). */
const StoreUrl = Nullable(Type.String({ maxLength: 2048, description: 'http(s) URL' }));

export const appStores = endpoint({
  method: 'GET',
  path: '/anonymous/appStores',
  access: 'public',
  summary: 'The mobile app’s store pages (App Store, Google Play), from the server’s configuration',
  data: Type.Object({ ios: StoreUrl, android: StoreUrl }),
});

export const upload = endpoint({
  method: 'GET',
  path: '/uploads/:folder/:file',
  access: 'public',
  summary: 'An uploaded image (avatar, logo, plant picture) by its random name',
  params: Type.Object({
    folder: Type.Union([Type.Literal('avatars'), Type.Literal('logos'), Type.Literal('plants')]),
    file: Type.String({ pattern: '^[a-f0-9]{32}\\.(png|jpg|gif)$' }),
  }),
  data: Type.Null(),
  file: true,
  errors: { 404: 'No such image (never uploaded, or replaced): code 404' },
});

/**
 * Prometheus text exposition of this process's counters. Answered without a token to the
 * loopback address only; from elsewhere with `Authorization: Bearer <METRICS_TOKEN>`.
 */
export const metrics = endpoint({
  method: 'GET',
  path: '/metrics',
  access: 'scrape',
  summary: 'Counters in Prometheus text format (loopback, or the metrics token)',
  data: Type.Null(),
  file: true,
});

const Count = Type.Integer({ minimum: 0 });

export const IngestStatus = Type.Object({
  /** Messages gateways published to ingest (telemetry and events). */
  received: Count,
  /** Device frames that passed the edge checks. */
  deviceFrames: Count,
  stored: Count,
  duplicates: Count,
  /** Messages acknowledged: every frame in them committed, or refused. */
  acknowledged: Count,
  refusedTotal: Count,
  refused: Type.Array(Type.Object({ reason: Type.String(), count: Count })),
  batches: Count,
  failedBatches: Count,
  queueLength: Count,
  lastCommitMs: Type.Number({ minimum: 0 }),
  averageCommitMs: Type.Number({ minimum: 0 }),
  heldSpells: Count,
});

export const BrokerStatus = Type.Object({
  kind: Type.Union([Type.Literal('embedded'), Type.Literal('bridge')]),
  /** Gateways with a live MQTT session as this process sees them. */
  connections: Count,
  delivered: Count,
  droppedOversize: Count,
  /** Messages over their gateway's rate, held until within it (never dropped). */
  rateLimited: Count,
  /** Messages acknowledged once stored or refused. */
  acknowledged: Count,
  /** Messages that arrived again with the MQTT DUP flag. */
  retransmitted: Count,
  held: Count,
});

export const StoreStatus = Type.Object({
  dialect: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  /** PostgreSQL connection pool. */
  pool: Nullable(Type.Object({ max: Count, total: Count, idle: Count, waiting: Count })),
  /** SQLite file and write-ahead log sizes (null for an in-memory store). */
  sqlite: Nullable(Type.Object({ fileBytes: Count, walBytes: Count })),
});

export const HttpRouteStatus = Type.Object({
  method: Type.String(),
  route: Type.String({ description: 'the route pattern, e.g. /api/v1/plant/:id' }),
  count: Count,
  serverErrors: Count,
  averageMs: Type.Number({ minimum: 0 }),
});

export const SystemStatus = Type.Object({
  at: Type.String({ format: 'date-time' }),
  uptimeSec: Count,
  store: StoreStatus,
  /** Null when this process does not run ingest (ROLES without ingest). */
  ingest: Nullable(IngestStatus),
  broker: Nullable(BrokerStatus),
  http: Type.Object({
    requests: Count,
    /** The busiest routes first, at most 20. */
    routes: Type.Array(HttpRouteStatus),
  }),
});

export const status = endpoint({
  method: 'GET',
  path: '/api/v1/system/status',
  access: 'system.management',
  summary: 'The figures of /metrics as one JSON snapshot, for the operators’ system page',
  data: SystemStatus,
});
