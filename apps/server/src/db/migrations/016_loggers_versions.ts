/**
 * System versions and the catalogue of maintenance functions.
 * `system_versions`: one row per published portal version: its number (unique; numbers ordered
 * by compareVersions rise with publication time), its release notes in Chinese and English, who
 * published it and when. `logger_functions`: the maintenance functions operators offer on
 * devices (a name and a function code, each unique, a description in English and Spanish, and
 * whether it is offered).
 */
import type { Kysely } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await idColumn(db, db.schema.createTable('system_versions'))
    .addColumn('number', 'varchar(32)', (c) => c.notNull())
    .addColumn('content_zh', 'text', (c) => c.notNull())
    .addColumn('content_en', 'text', (c) => c.notNull())
    .addColumn('published_by', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('system_versions_number').on('system_versions').column('number').unique().execute();
  await db.schema.createIndex('system_versions_time').on('system_versions').column('published_at').execute();

  await idColumn(db, db.schema.createTable('logger_functions'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('code', 'varchar(32)', (c) => c.notNull())
    .addColumn('description_en', 'varchar(500)', (c) => c.notNull())
    .addColumn('description_es', 'varchar(500)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('logger_functions_name').on('logger_functions').column('name').unique().execute();
  await db.schema.createIndex('logger_functions_code').on('logger_functions').column('code').unique().execute();
  await db.schema.createIndex('maintenance_log_time').on('maintenance_log').column('created_at').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('maintenance_log_time').execute();
  await db.schema.dropTable('logger_functions').execute();
  await db.schema.dropTable('system_versions').execute();
}
