/**
 * What the first start and the demo set-up made, recorded by a fixed step name with the ids of
 * what they made: a later start finds its work done by this record, never by a name an
 * administrator can change (renaming the demo company no longer makes the demo again).
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('bootstrap_steps')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('bootstrap_steps').execute();
}
