/**
 * Company rules: a company administrator or user reaches only their own company (another id
 * answers 404, as if it did not exist); operators reach every company. Names are unique without
 * regard to case (203). Every change is written with its audit record in one transaction.
 */
import { type BodyOf, type companyApi, ErrorCode } from '@sunfleet/contracts';
import type { Updateable } from 'kysely';
import type { Caller } from '../../access/caller.ts';
import { recordAdminChange } from '../../audit/admin.ts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import type { CompaniesTable, Company } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import { refuseOversizedImage } from '../../http/image-size.ts';
import * as repo from './company.repo.ts';
import { auditedCompany, companyNamed, companyRow, toCompanyInfo } from './company.repo.ts';
import { logoStored, readLogo } from './logo.ts';

const isOperator = (caller: Caller) => caller.user.kind === 'sysadmin';

/** The company `id` as the caller may see it: their own, or any for an operator; else 404. */
export async function companyFor(db: Db, caller: Caller, id: number): Promise<Company> {
  if (!isOperator(caller) && caller.user.company_id !== id) return fail(ErrorCode.notFound);
  return (await companyRow(db, id)) ?? fail(ErrorCode.notFound);
}

export async function companyInfo(db: Db, caller: Caller, id?: number) {
  const target = id ?? caller.user.company_id ?? fail(ErrorCode.notFound);
  return toCompanyInfo(db, await companyFor(db, caller, target));
}

export async function checkCompanyName(db: Db, caller: Caller, name: string, exceptId?: number) {
  if (exceptId !== undefined) await companyFor(db, caller, exceptId);
  if (await companyNamed(db, name.trim(), exceptId)) fail(ErrorCode.companyNameTaken);
}

type Fields = BodyOf<typeof companyApi.editCompany>;
const columns = (body: Fields): Updateable<CompaniesTable> => ({
  name: body.name.trim(),
  ...(body.contactName !== undefined ? { contact_name: body.contactName?.trim() || null } : {}),
  ...(body.email !== undefined ? { email: body.email?.toLowerCase() ?? null } : {}),
  ...(body.phone !== undefined ? { phone: body.phone?.trim() || null } : {}),
  ...(body.address !== undefined ? { address: body.address?.trim() || null } : {}),
});

export async function addCompany(db: Db, caller: Caller, body: BodyOf<typeof companyApi.addCompany>) {
  const t = now();
  const id = await db.transaction().execute(async (trx) => {
    if (await companyNamed(trx, body.name.trim())) fail(ErrorCode.companyNameTaken);
    const row = await repo.insertCompany(trx, {
      name: body.name.trim(),
      contact_name: body.contactName?.trim() || null,
      email: body.email?.toLowerCase() ?? null,
      phone: body.phone?.trim() || null,
      address: body.address?.trim() || null,
      theme_color: body.themeColor?.toLowerCase() ?? null,
      created_at: t,
      updated_at: t,
    });
    await recordAdminChange(
      trx,
      {
        actorUserId: caller.user.id,
        companyId: row.id,
        entity: 'company',
        entityId: row.id,
        action: 'create',
        after: auditedCompany(row),
      },
      t,
    );
    return row.id;
  });
  return companyInfo(db, caller, id);
}

/** Change a company's columns and record before and after, in one transaction. */
async function changeCompany(db: Db, caller: Caller, id: number, action: string, set: Updateable<CompaniesTable>) {
  await companyFor(db, caller, id);
  const t = now();
  await db.transaction().execute(async (trx) => {
    const before = (await companyRow(trx, id)) ?? fail(ErrorCode.notFound);
    if (set.name !== undefined && (await companyNamed(trx, String(set.name), id))) fail(ErrorCode.companyNameTaken);
    const after = await repo.updateCompany(trx, id, { ...set, updated_at: t });
    await recordAdminChange(
      trx,
      {
        actorUserId: caller.user.id,
        companyId: id,
        entity: 'company',
        entityId: id,
        action,
        before: auditedCompany(before),
        after: auditedCompany(after),
      },
      t,
    );
  });
  return companyInfo(db, caller, id);
}

export const editCompany = (db: Db, caller: Caller, id: number, body: Fields) =>
  changeCompany(db, caller, id, 'edit', columns(body));

export const setThemeColor = (db: Db, caller: Caller, id: number, color: string | null) =>
  changeCompany(db, caller, id, 'theme', { theme_color: color?.toLowerCase() ?? null });

export async function setLogo(
  db: Db,
  dataDir: string,
  caller: Caller,
  id: number,
  body: { logoUrl: string | null; iconUrl: string | null },
) {
  await companyFor(db, caller, id);
  for (const [field, url] of Object.entries(body))
    if (url !== null && !(await logoStored(dataDir, url)))
      fail(ErrorCode.validation, `${field}: not an uploaded logo; upload it again`);
  // Logos and icons are uploaded alike; an icon shows smaller and may be smaller still.
  if (body.iconUrl !== null) refuseOversizedImage(await readLogo(dataDir, body.iconUrl), 'icon');
  return changeCompany(db, caller, id, 'logo', { logo_url: body.logoUrl, icon_url: body.iconUrl });
}
