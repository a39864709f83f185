/**
 * The demo tenants (DEMO=on, the default for `npm start`): an installer company with an
 * administrator and a technician, an owner with plants the company is agent for, and a
 * read-only visitor the plants are shared with — so that every menu can be seen.
 * Idempotent: a second start finds the demo company and does nothing.
 */
import { companyGrantable } from '@sunfleet/contracts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { now } from '../db/index.ts';
import type { AccountKind } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/passwords.ts';

export const DEMO_PASSWORD = 'Demo2026!';
export const demoAccounts = {
  companyAdmin: 'installer@demo.sunfleet.local',
  companyUser: 'tech@demo.sunfleet.local',
  owner: 'owner@demo.sunfleet.local',
  visitor: 'visitor@demo.sunfleet.local',
} as const;
const DEMO_COMPANY = 'Demo Solar Installers';

const technicianPermissions = [
  'station.view',
  'station.export',
  'equip.view',
  'gateway.view',
  'gateway.restart',
  'inverter.view',
  'inverter.setting',
  'battery.list.view',
  'meter.view',
  'weather.view',
  'event.view',
  'event.export',
  'workdata.view',
  'workdata.export',
];

export async function ensureDemo(db: Db, config: Config): Promise<boolean> {
  const existing = await db.selectFrom('companies').select('id').where('name', '=', DEMO_COMPANY).executeTakeFirst();
  if (existing) return false;
  const t = now();
  const passwordHash = await hashPassword(DEMO_PASSWORD, config.passwordCost);
  await db.transaction().execute(async (trx) => {
    const type = await trx
      .insertInto('customer_types')
      .values({
        name: 'Installer',
        remark: 'Installs and maintains plants for owners',
        permissions: JSON.stringify(companyGrantable),
        created_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const company = await trx
      .insertInto('companies')
      .values({
        name: DEMO_COMPANY,
        contact_name: 'Ana García',
        email: 'contact@demo.sunfleet.local',
        phone: '+34 600 000 000',
        address: 'Calle del Sol 1, Sevilla',
        customer_type_id: type.id,
        permissions: JSON.stringify(companyGrantable),
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await trx
      .insertInto('company_roles')
      .values({ company_id: company.id, name: 'Technician', permissions: JSON.stringify(technicianPermissions), created_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = async (account: string, kind: AccountKind, extra: Record<string, unknown>) =>
      (
        await trx
          .insertInto('users')
          .values({ account, password_hash: passwordHash, kind, created_at: t, updated_at: t, ...extra })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    await user(demoAccounts.companyAdmin, 'company_admin', { company_id: company.id, nickname: 'Ana', name: 'Ana García' });
    await user(demoAccounts.companyUser, 'company_user', { company_id: company.id, role_id: role.id, nickname: 'Luis' });
    const owner = await user(demoAccounts.owner, 'end_user', { agent_company_id: company.id, nickname: 'Marta' });
    const visitor = await user(demoAccounts.visitor, 'end_user', { read_only: 1, nickname: 'Visitor' });
    const plants = [
      { name: 'Casa Marta Rooftop', type: 0, capacity: 6.6, timezone: 'Europe/Madrid', latitude: 37.39, longitude: -5.98 },
      { name: 'Finca Olivar Storage', type: 2, capacity: 12, timezone: 'Europe/Madrid', latitude: 37.88, longitude: -4.78 },
      { name: 'Workshop AC-coupled', type: 1, capacity: 9.9, timezone: 'Europe/Madrid', latitude: 36.72, longitude: -4.42 },
    ];
    for (const p of plants) {
      const plant = await trx
        .insertInto('plants')
        .values({ ...p, owner_user_id: owner, currency: 'EUR', status: 'offline', created_at: t, updated_at: t })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('plant_shares')
        .values({ plant_id: plant.id, user_id: visitor, role: 'visitor', created_at: t })
        .execute();
    }
  });
  return true;
}
