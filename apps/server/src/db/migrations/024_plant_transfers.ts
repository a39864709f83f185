/**
 * Plant transfer requests: the owner offers a plant to another account, which accepts or
 * declines; at most one request per plant is pending at a time (a partial unique index).
 */
import { type Kysely, sql } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await idColumn(db, db.schema.createTable('plant_transfers'))
    .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
    .addColumn('from_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('to_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Who held the plant when it was offered: acceptance needs it unchanged.
    .addColumn('owner_user_id', 'integer')
    .addColumn('company_id', 'integer')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('closed_at', 'bigint')
    .addColumn('closed_by', 'integer')
    .execute();
  await db.schema
    .createIndex('plant_transfers_pending')
    .on('plant_transfers')
    .column('plant_id')
    .unique()
    .where(sql<boolean>`status = 'pending'`)
    .execute();
  await db.schema.createIndex('plant_transfers_to').on('plant_transfers').columns(['to_user_id', 'status']).execute();
  await db.schema.createIndex('plant_transfers_from').on('plant_transfers').columns(['from_user_id', 'status']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('plant_transfers').execute();
}
