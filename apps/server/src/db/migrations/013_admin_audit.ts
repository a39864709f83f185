/**
 * The administrative audit log: every change to a company, user, role, customer, customer type,
 * agent or gateway in stock, with who made it, when, and the record before and after (JSON).
 */
import type { Kysely } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await idColumn(db, db.schema.createTable('admin_audit'))
    .addColumn('actor_user_id', 'integer', (c) => c.notNull())
    .addColumn('company_id', 'integer')
    .addColumn('entity', 'varchar(24)', (c) => c.notNull())
    .addColumn('entity_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('action', 'varchar(24)', (c) => c.notNull())
    .addColumn('before_values', 'text')
    .addColumn('after_values', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_audit_time').on('admin_audit').column('created_at').execute();
  await db.schema.createIndex('admin_audit_entity').on('admin_audit').columns(['entity', 'entity_id', 'created_at']).execute();
  await db.schema.createIndex('admin_audit_company').on('admin_audit').columns(['company_id', 'created_at']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('admin_audit').execute();
}
