/**
 * Gateways in stock: the protocol a gateway polls its devices with (a protocol id of
 * @sunfleet/protocols, null when none was set), set when it is created or imported and changed
 * by the system administrators; the stock list filters by it.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('gateways').addColumn('protocol_id', 'varchar(64)').execute();
  await db.schema.createIndex('gateways_protocol').on('gateways').column('protocol_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('gateways_protocol').execute();
  await db.schema.alterTable('gateways').dropColumn('protocol_id').execute();
}
