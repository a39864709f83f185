/**
 * When each gateway and device joined its current plant (`bound_at`, epoch ms): a plant sees a
 * device's samples, day rows, latest values and events from that instant on; what came before
 * belongs to the earlier owner (or to no plant).
 *
 * `device_bindings` keeps a device's past time in a plant it has left ([bound_at, unbound_at)),
 * so that plant's curves still show it over that time.
 *
 * Existing rows: the store does not record past moves, except through events, which carry the
 * plant they were raised for. A device or gateway with an event raised for another plant (or for
 * none) joined its current plant after that event; everything else keeps all its history (0).
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('devices')
    .addColumn('bound_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('gateways')
    .addColumn('bound_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  const foreign = (owner: 'device_id' | 'gateway_id', table: 'devices' | 'gateways') =>
    sql`(select max(e.started_at) + 1 from events e where e.${sql.ref(owner)} = ${sql.table(table)}.id
      and (e.plant_id is null or e.plant_id <> ${sql.table(table)}.plant_id))`;
  await db.schema
    .createTable('device_bindings')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id'))
    .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id'))
    .addColumn('bound_at', 'bigint', (c) => c.notNull())
    .addColumn('unbound_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_bindings_pk', ['plant_id', 'unbound_at', 'device_id'])
    .execute();
  await sql`update devices set bound_at = coalesce(${foreign('device_id', 'devices')}, 0) where plant_id is not null`.execute(db);
  await sql`update gateways set bound_at = coalesce(${foreign('gateway_id', 'gateways')}, 0) where plant_id is not null`.execute(
    db,
  );
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('device_bindings').execute();
  await db.schema.alterTable('gateways').dropColumn('bound_at').execute();
  await db.schema.alterTable('devices').dropColumn('bound_at').execute();
}
