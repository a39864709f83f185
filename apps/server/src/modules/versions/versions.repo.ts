/** The SQL of system versions; rows mapped to the contract's record. */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { iso } from '../../time/index.ts';

type Tx = Db | Transaction<Database>;

const withPublisher = (db: Tx) =>
  db
    .selectFrom('system_versions')
    .leftJoin('users', 'users.id', 'system_versions.published_by')
    .select([
      'system_versions.id',
      'system_versions.number',
      'system_versions.content_zh',
      'system_versions.content_en',
      'system_versions.published_at',
      'system_versions.updated_at',
      'users.nickname',
      'users.account',
    ]);

type Row = Awaited<ReturnType<ReturnType<typeof withPublisher>['execute']>>[number];

const toVersion = (r: Row) => ({
  id: r.id,
  number: r.number,
  contentZh: r.content_zh,
  contentEn: r.content_en,
  publisher: r.nickname || r.account || '',
  publishedAt: iso(r.published_at)!,
  updatedAt: iso(r.updated_at)!,
});

/**
 * Newest first. Numbers rise with publication time (the service keeps it so), so this is also
 * highest number first.
 */
export async function versionPage(db: Tx, page: number, size: number) {
  const [count, rows] = await Promise.all([
    db
      .selectFrom('system_versions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
    withPublisher(db)
      .orderBy('system_versions.published_at', 'desc')
      .orderBy('system_versions.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
  ]);
  return { total: Number(count.n), list: rows.map(toVersion) };
}

export async function versionById(db: Tx, id: number) {
  const r = await withPublisher(db).where('system_versions.id', '=', id).executeTakeFirst();
  return r && toVersion(r);
}

export async function latest(db: Tx) {
  const r = await withPublisher(db)
    .orderBy('system_versions.published_at', 'desc')
    .orderBy('system_versions.id', 'desc')
    .executeTakeFirst();
  return r && toVersion(r);
}

/** Every version's id, number and time, oldest first: what the order rule is checked against. */
export async function versionNumbers(db: Tx) {
  const rows = await db
    .selectFrom('system_versions')
    .select(['id', 'number', 'published_at'])
    .orderBy('published_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, number: r.number, publishedAt: Number(r.published_at) }));
}

/** Hold writers of other versions off until the transaction ends (PostgreSQL; SQLite has one writer). */
export async function lockVersions(trx: Tx, dialect: 'postgres' | string) {
  if (dialect === 'postgres') await sql`lock table system_versions in share row exclusive mode`.execute(trx);
}

export const updateVersion = (
  trx: Tx,
  id: number,
  set: { number: string; content_zh: string; content_en: string; updated_at: number },
) => trx.updateTable('system_versions').set(set).where('id', '=', id).execute();

export async function insertVersion(
  trx: Tx,
  values: {
    number: string;
    content_zh: string;
    content_en: string;
    published_by: number;
    published_at: number;
    updated_at: number;
  },
): Promise<number> {
  const row = await trx.insertInto('system_versions').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Delete a version; whether there was one. */
export async function deleteVersionRow(db: Tx, id: number): Promise<boolean> {
  const done = await db.deleteFrom('system_versions').where('id', '=', id).executeTakeFirst();
  return Number(done.numDeletedRows) !== 0;
}
