/**
 * Demand response that trusts only what the VTN answers:
 * - an event row is the VTN object of one id *and* creation time: a VTN that lost its state may
 *   hand out the same id again, and the new object must never be merged into the old row
 *   (`vtn_created`; the id alone is no longer unique);
 * - why an event was not acted on (`ignored_reason`: not for this VEN's targets, not a programme it
 *   is enrolled in), the devices its targets limit it to (`resource_scope`, JSON of SNs; null: all)
 *   and why it ended before its window (`ended_reason`: the VTN no longer has it);
 * - a report bound to the event object it answers (`event_vtn_id`, `event_created`), and given up
 *   for good (`dead_at`) after a refusal (4xx) or a day of failed attempts.
 */
import { type Kysely, sql } from 'kysely';
import { idColumn, isPostgres } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

const eventColumns = [
  'id',
  'vtn_id',
  'program_id',
  'name',
  'body',
  'start_ms',
  'end_ms',
  'modified',
  'cancelled_at',
  'received_at',
  'updated_at',
  'reported_at',
];

export async function up(db: Db): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table dr_events drop constraint if exists dr_events_vtn_id_key`.execute(db);
    await db.schema
      .alterTable('dr_events')
      .addColumn('vtn_created', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .execute();
  } else {
    // SQLite keeps a column's UNIQUE for the table's life: the table is made again without it.
    await idColumn(db, db.schema.createTable('dr_events_next'))
      .addColumn('vtn_id', 'varchar(128)', (c) => c.notNull())
      .addColumn('program_id', 'varchar(128)', (c) => c.notNull())
      .addColumn('name', 'varchar(128)')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('start_ms', 'bigint')
      .addColumn('end_ms', 'bigint')
      .addColumn('modified', 'varchar(64)')
      .addColumn('cancelled_at', 'bigint')
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('reported_at', 'bigint')
      .addColumn('vtn_created', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .execute();
    const list = sql.raw(eventColumns.join(', '));
    await sql`insert into dr_events_next (${list}) select ${list} from dr_events`.execute(db);
    await db.schema.dropTable('dr_events').execute();
    await db.schema.alterTable('dr_events_next').renameTo('dr_events').execute();
    await db.schema.createIndex('dr_events_program').on('dr_events').columns(['program_id', 'start_ms']).execute();
  }
  await db.schema.createIndex('dr_events_vtn_object').on('dr_events').columns(['vtn_id', 'vtn_created']).unique().execute();
  await db.schema.alterTable('dr_events').addColumn('ignored_reason', 'varchar(255)').execute();
  await db.schema.alterTable('dr_events').addColumn('ended_reason', 'varchar(255)').execute();
  await db.schema.alterTable('dr_events').addColumn('resource_scope', 'text').execute();

  await db.schema.alterTable('dr_outbox').addColumn('event_vtn_id', 'varchar(128)').execute();
  await db.schema.alterTable('dr_outbox').addColumn('event_created', 'varchar(64)').execute();
  await db.schema.alterTable('dr_outbox').addColumn('dead_at', 'bigint').execute();
}

export async function down(db: Db): Promise<void> {
  for (const c of ['dead_at', 'event_created', 'event_vtn_id']) await db.schema.alterTable('dr_outbox').dropColumn(c).execute();
  await db.schema.dropIndex('dr_events_vtn_object').execute();
  for (const c of ['resource_scope', 'ended_reason', 'ignored_reason', 'vtn_created'])
    await db.schema.alterTable('dr_events').dropColumn(c).execute();
}
