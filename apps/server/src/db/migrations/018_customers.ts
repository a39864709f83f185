/**
 * Customers: a customer type may sit under a parent type (one level of subtypes), and a customer
 * company may be served by an agent (another customer company, one level: an agent has no agent).
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('customer_types')
    .addColumn('parent_id', 'integer', (c) => c.references('customer_types.id'))
    .execute();
  await db.schema.createIndex('customer_types_parent').on('customer_types').column('parent_id').execute();
  await db.schema
    .alterTable('companies')
    .addColumn('agent_company_id', 'integer', (c) => c.references('companies.id'))
    .execute();
  await db.schema.createIndex('companies_agent').on('companies').column('agent_company_id').execute();
  await db.schema.createIndex('companies_customer_type').on('companies').column('customer_type_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('companies_customer_type').execute();
  await db.schema.dropIndex('companies_agent').execute();
  await db.schema.alterTable('companies').dropColumn('agent_company_id').execute();
  await db.schema.dropIndex('customer_types_parent').execute();
  await db.schema.alterTable('customer_types').dropColumn('parent_id').execute();
}
