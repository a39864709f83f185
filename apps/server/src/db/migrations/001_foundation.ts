/** Accounts, companies, roles, sessions, verification codes, and plants with shares. */
import type { Kysely } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then, not today's types
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await idColumn(db, db.schema.createTable('customer_types'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('remark', 'varchar(255)')
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable('companies'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('contact_name', 'varchar(64)')
    .addColumn('email', 'varchar(254)')
    .addColumn('phone', 'varchar(32)')
    .addColumn('address', 'varchar(255)')
    .addColumn('logo_url', 'varchar(255)')
    .addColumn('icon_url', 'varchar(255)')
    .addColumn('theme_color', 'varchar(16)')
    .addColumn('customer_type_id', 'integer', (c) => c.references('customer_types.id'))
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable('company_roles'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'varchar(32)', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('company_roles_company_name', ['company_id', 'name'])
    .execute();

  await idColumn(db, db.schema.createTable('users'))
    .addColumn('account', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('role_id', 'integer', (c) => c.references('company_roles.id').onDelete('set null'))
    .addColumn('nickname', 'varchar(64)')
    .addColumn('name', 'varchar(64)')
    .addColumn('gender', 'varchar(8)')
    .addColumn('phone', 'varchar(32)')
    .addColumn('avatar', 'varchar(255)')
    .addColumn('temperature_unit', 'varchar(2)', (c) => c.notNull().defaultTo('C'))
    .addColumn('language', 'varchar(8)', (c) => c.notNull().defaultTo('en'))
    .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notify_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notify_email', 'varchar(254)')
    .addColumn('personalized', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('agent_company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_company').on('users').column('company_id').execute();
  await db.schema.createIndex('users_agent_company').on('users').column('agent_company_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(255)')
    .addColumn('ip', 'varchar(64)')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('session_id', 'varchar(36)', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('refresh_tokens_session').on('refresh_tokens').column('session_id').execute();

  await idColumn(db, db.schema.createTable('verification_codes'))
    .addColumn('account', 'varchar(254)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('verification_codes_account').on('verification_codes').columns(['account', 'purpose']).execute();

  await idColumn(db, db.schema.createTable('plants'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('capacity', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('owner_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('currency', 'varchar(8)')
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('address', 'varchar(255)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('offline'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('plants_owner').on('plants').column('owner_user_id').execute();
  await db.schema.createIndex('plants_company').on('plants').column('company_id').execute();

  await db.schema
    .createTable('plant_shares')
    .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('plant_shares_pk', ['plant_id', 'user_id'])
    .execute();
  await db.schema.createIndex('plant_shares_user').on('plant_shares').column('user_id').execute();
}

export async function down(db: Db): Promise<void> {
  for (const t of [
    'plant_shares',
    'plants',
    'verification_codes',
    'refresh_tokens',
    'sessions',
    'users',
    'company_roles',
    'companies',
    'customer_types',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
