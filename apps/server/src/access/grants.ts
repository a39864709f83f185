/**
 * What an account may do: the set of permission names it holds.
 * - system administrators: the whole catalogue;
 * - company administrators: what their company holds (set per company, defaulting to its
 *   customer type's grants) — never platform permissions;
 * - company users: their role's permissions, cut to what the company holds;
 * - end users (owners): the owner permissions;
 * - a read-only account keeps only the view permissions of the above.
 */
import { companyGrantable, ownerPermissions, platformPermissions, viewOnly } from '@sunfleet/contracts';
import type { Db } from '../db/index.ts';
import { parseJson } from '../db/index.ts';
import type { User } from '../db/schema.ts';

const grantableToCompanies = new Set(companyGrantable);

export async function companyHolds(db: Db, companyId: number): Promise<Set<string>> {
  const company = await db.selectFrom('companies').select(['permissions']).where('id', '=', companyId).executeTakeFirst();
  return new Set(parseJson<string[]>(company?.permissions, []).filter((p) => grantableToCompanies.has(p)));
}

export async function grantsFor(db: Db, user: User): Promise<Set<string>> {
  let names: Iterable<string>;
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
      names = parseJson<string[]>(role?.permissions, []).filter((p) => held.has(p));
      break;
    }
    default:
      names = ownerPermissions;
  }
  return new Set(user.read_only ? viewOnly(names) : names);
}
