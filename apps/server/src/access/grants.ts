/**
 * What an account may do: the set of permission names it holds.
 * - system administrators: the whole catalogue;
 * - company administrators: what their company holds (set per company, defaulting to its
 *   customer type's grants) — never platform permissions;
 * - company users: their role's permissions, cut to what the company holds;
 * - end users (owners): the owner permissions;
 * - a read-only account keeps only the view permissions of the above.
 */
import {
  companyGrantable,
  isPermissionName,
  ownerPermissions,
  type PermissionName,
  platformPermissions,
  viewOnly,
} from '@sunfleet/contracts';
import type { Db } from '../db/index.ts';
import { parseJson } from '../db/index.ts';
import type { User } from '../db/schema.ts';

const grantableToCompanies: ReadonlySet<string> = new Set(companyGrantable);

/** Stored names that are the catalogue's and may be granted to a company (a name since removed is dropped). */
const companyNames = (stored: string | null | undefined): PermissionName[] =>
  parseJson<string[]>(stored, []).filter((p): p is PermissionName => isPermissionName(p) && grantableToCompanies.has(p));

export async function companyHolds(db: Db, companyId: number): Promise<Set<PermissionName>> {
  const company = await db.selectFrom('companies').select(['permissions']).where('id', '=', companyId).executeTakeFirst();
  return new Set(companyNames(company?.permissions));
}

export async function grantsFor(db: Db, user: User): Promise<Set<PermissionName>> {
  let names: Iterable<PermissionName>;
  switch (user.kind) {
    case 'sysadmin':
      names = platformPermissions;
      break;
    case 'company_admin':
      names = user.company_id ? await companyHolds(db, user.company_id) : [];
      break;
    case 'company_user': {
      if (!user.company_id || !user.role_id) {
        names = [];
        break;
      }
      const held = await companyHolds(db, user.company_id);
      const role = await db.selectFrom('company_roles').select('permissions').where('id', '=', user.role_id).executeTakeFirst();
      names = parseJson<string[]>(role?.permissions, []).filter((p): p is PermissionName => held.has(p as PermissionName));
      break;
    }
    default:
      names = ownerPermissions;
  }
  return new Set(user.read_only ? viewOnly(names) : names);
}
