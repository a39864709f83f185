/**
 * Abuse limits: `throttles`, the counters every server process shares (one row per limit and
 * subject: hits since the window began, the last hit); `pending_uploads`, each stored picture
 * that nothing refers to yet, with its uploader, until a plant takes it or the clean-up job
 * deletes it.
 */
import type { Kysely } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('throttles')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('throttles_last').on('throttles').column('last_at').execute();

  await idColumn(db, db.schema.createTable('pending_uploads'))
    .addColumn('url', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pending_uploads_user').on('pending_uploads').column('user_id').execute();
  await db.schema.createIndex('pending_uploads_created').on('pending_uploads').column('created_at').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('pending_uploads').execute();
  await db.schema.dropTable('throttles').execute();
}
