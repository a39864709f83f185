/**
 * The devices area:
 * - `parameter_profiles`: each account's saved parameter picks for the inverter day chart (at
 *   most 6 profiles of at most 6 parameters), in the account's order.
 * - `gateway_sessions`: a gateway's connection history, one row per online period (closed
 *   when it goes offline); at most one open period per gateway (a partial unique index).
 * - Indexes for the device lists over live devices: per kind in SN order (the default page
 *   walks it and stops), and per kind and status with the plant (counts per status and the
 *   status filter, read from the index alone).
 * - The offline periods the offline detection records as gateway events, by gateway and time:
 *   the connection history until presence writes sessions.
 */
import { type Kysely, sql } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await idColumn(db, db.schema.createTable('parameter_profiles'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    // JSON array of parameter keys (protocol field keys).
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('parameter_profiles_user').on('parameter_profiles').columns(['user_id', 'position']).execute();

  await idColumn(db, db.schema.createTable('gateway_sessions'))
    .addColumn('gateway_id', 'integer', (c) => c.notNull().references('gateways.id'))
    .addColumn('online_at', 'bigint', (c) => c.notNull())
    .addColumn('offline_at', 'bigint')
    .execute();
  await db.schema.createIndex('gateway_sessions_gateway').on('gateway_sessions').columns(['gateway_id', 'online_at']).execute();
  await sql`create unique index gateway_sessions_open on gateway_sessions (gateway_id) where offline_at is null`.execute(db);

  await sql`create index devices_kind_sn on devices (kind, sn) where deleted_at is null`.execute(db);
  await sql`create index devices_kind_status on devices (kind, status, plant_id) where deleted_at is null`.execute(db);
  await db.schema.createIndex('events_gateway_history').on('events').columns(['gateway_id', 'started_at']).execute();
}

export async function down(db: Db): Promise<void> {
  for (const index of ['events_gateway_history', 'devices_kind_status', 'devices_kind_sn']) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.dropTable('gateway_sessions').execute();
  await db.schema.dropTable('parameter_profiles').execute();
}
