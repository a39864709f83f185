/**
 * The firmware library's catalogue: inverter types (an ordered list), products (gateway or
 * inverter: name, EPN, brand, hardware versions; an inverter product under an inverter type) and
 * the product an image was uploaded for. A product's name is unique within its type; a product
 * has each version at most once.
 */
import type { Kysely } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await idColumn(db, db.schema.createTable('inverter_types'))
    .addColumn('name', 'varchar(32)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('inverter_types_name').on('inverter_types').column('name').unique().execute();

  await idColumn(db, db.schema.createTable('products'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('epn', 'varchar(64)')
    .addColumn('brand', 'varchar(64)')
    .addColumn('inverter_type_id', 'integer', (c) => c.references('inverter_types.id'))
    .addColumn('hardware_versions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('products_name').on('products').columns(['type', 'name']).unique().execute();
  await db.schema.createIndex('products_inverter_type').on('products').column('inverter_type_id').execute();

  await db.schema
    .alterTable('firmware')
    .addColumn('product_id', 'integer', (c) => c.references('products.id'))
    .execute();
  await db.schema.createIndex('firmware_product_id').on('firmware').column('product_id').execute();
  await db.schema.createIndex('firmware_sha256').on('firmware').column('sha256').execute();
  await db.schema
    .createIndex('firmware_product_version')
    .on('firmware')
    .columns(['type', 'product_name', 'version'])
    .unique()
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('firmware_product_version').execute();
  await db.schema.dropIndex('firmware_sha256').execute();
  await db.schema.dropIndex('firmware_product_id').execute();
  await db.schema.alterTable('firmware').dropColumn('product_id').execute();
  await db.schema.dropTable('products').execute();
  await db.schema.dropTable('inverter_types').execute();
}
