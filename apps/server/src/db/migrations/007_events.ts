/**
 * Events and notifications: who acknowledged an event, when and with what note; the log
 * of fault notifications (one row per user and event that was mailed, held back by the rate
 * limit, or summed up in a digest), which is also what de-duplicates them; the notifier's
 * cursor over the events table, so that a restart neither resends nor skips; and indexes for the
 * event filters (newest first across plants, by level, by device SN).
 */
import type { Kysely } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('events').addColumn('acked_at', 'bigint').execute();
  await db.schema
    .alterTable('events')
    .addColumn('acked_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema.alterTable('events').addColumn('ack_note', 'varchar(255)').execute();

  await db.schema.createIndex('events_started').on('events').columns(['started_at', 'id']).execute();
  await db.schema.createIndex('events_level_started').on('events').columns(['level', 'started_at']).execute();
  await db.schema.createIndex('events_sn_started').on('events').columns(['sn', 'started_at']).execute();

  // state: sending → sent | failed (retried) ; held (over the hourly limit) → digested ; digest
  // (the mail that summed up held rows; event_id null).
  await idColumn(db, db.schema.createTable('event_notifications'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event_id', 'integer')
    .addColumn('plant_id', 'integer')
    .addColumn('sn', 'varchar(32)', (c) => c.notNull())
    .addColumn('code', 'varchar(48)', (c) => c.notNull())
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('mailed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('event_notifications_dedupe')
    .on('event_notifications')
    .columns(['user_id', 'sn', 'code', 'created_at'])
    .execute();
  await db.schema.createIndex('event_notifications_mailed').on('event_notifications').columns(['user_id', 'mailed_at']).execute();
  await db.schema.createIndex('event_notifications_state').on('event_notifications').columns(['state', 'user_id']).execute();

  await db.schema
    .createTable('event_notifier_state')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('last_event_id', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('event_notifier_state').execute();
  await db.schema.dropTable('event_notifications').execute();
  await db.schema.dropIndex('events_sn_started').execute();
  await db.schema.dropIndex('events_level_started').execute();
  await db.schema.dropIndex('events_started').execute();
  await db.schema.alterTable('events').dropColumn('ack_note').execute();
  await db.schema.alterTable('events').dropColumn('acked_by').execute();
  await db.schema.alterTable('events').dropColumn('acked_at').execute();
}
