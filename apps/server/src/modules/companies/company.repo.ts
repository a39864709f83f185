/** SQL for companies: one company with its account and role counts, name look-ups. */
import { defaultThemeColor } from '@sunfleet/contracts';
import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { CompaniesTable, Company } from '../../db/schema.ts';
import { iso } from '../../time/index.ts';

export const companyRow = (db: Db, id: number) => db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();

/** Another company (not `exceptId`) with this name, compared without regard to case. */
export const companyNamed = (db: Db, name: string, exceptId?: number) => {
  let q = db
    .selectFrom('companies')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
  if (exceptId) q = q.where('id', '!=', exceptId);
  return q.executeTakeFirst();
};

const count = async (db: Db, table: 'users' | 'company_roles', companyId: number) =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The fields the audit log keeps of a company (before and after a change). */
export const auditedCompany = (c: Company) => ({
  name: c.name,
  contactName: c.contact_name,
  email: c.email,
  phone: c.phone,
  address: c.address,
  logoUrl: c.logo_url,
  iconUrl: c.icon_url,
  themeColor: c.theme_color,
});

export async function toCompanyInfo(db: Db, c: Company) {
  return {
    id: c.id,
    name: c.name,
    contactName: c.contact_name,
    email: c.email,
    phone: c.phone,
    address: c.address,
    logoUrl: c.logo_url,
    iconUrl: c.icon_url,
    themeColor: c.theme_color ?? defaultThemeColor,
    users: await count(db, 'users', c.id),
    roles: await count(db, 'company_roles', c.id),
    createdAt: iso(c.created_at)!,
  };
}

export const insertCompany = (trx: Db, values: Omit<Insertable<CompaniesTable>, 'id'>) =>
  trx.insertInto('companies').values(values).returningAll().executeTakeFirstOrThrow();

export const updateCompany = (trx: Db, id: number, set: Updateable<CompaniesTable>) =>
  trx.updateTable('companies').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
