/**
 * The demo tenants (DEMO=on, the default for `npm start`): an installer company with an
 * administrator and a technician, an owner with plants the company is agent for, and a
 * read-only visitor the plants are shared with — so that every menu can be seen.
 * Made once: the step is recorded (bootstrap_steps, with the ids it made), and a later start finds
 * that record, whatever an administrator renamed or deleted since.
 */
import { companyGrantable } from '@sunfleet/contracts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { now } from '../db/index.ts';
import type { AccountKind } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { claimStep, recordStep, stepDone } from './steps.ts';

export const DEMO_PASSWORD = 'Demo2026!';
export const demoAccounts = {
  companyAdmin: 'installer@demo.sunfleet.local',
  companyUser: 'tech@demo.sunfleet.local',
  owner: 'owner@demo.sunfleet.local',
  visitor: 'visitor@demo.sunfleet.local',
} as const;
const DEMO_COMPANY = 'Demo Solar Installers';
export const DEMO_STEP = 'demo';

/** The ids the demo set-up made (its record). */
export interface DemoMade {
  companyId?: number;
  customerTypeId?: number;
  ownerId?: number;
  visitorId?: number;
}

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
  if (await stepDone(db, DEMO_STEP)) return false;
  // A store whose demo was made before steps were recorded: its demo accounts say so.
  const earlier = await db
    .selectFrom('users')
    .select(['id', 'account'])
    .where('account', 'in', Object.values(demoAccounts))
    .execute();
  if (earlier.length > 0) {
    const id = (account: string) => earlier.find((u) => u.account === account)?.id;
    await claimStep(db, DEMO_STEP, { ownerId: id(demoAccounts.owner), visitorId: id(demoAccounts.visitor) } satisfies DemoMade);
    return false;
  }
  const t = now();
  const passwordHash = await hashPassword(DEMO_PASSWORD, config.passwordCost);
  return db.transaction().execute(async (trx) => {
    // Another start at the same moment that claimed it first makes it; this one makes nothing.
    if (!(await claimStep(trx, DEMO_STEP))) return false;
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
    const made: DemoMade = { companyId: company.id, customerTypeId: type.id, ownerId: owner, visitorId: visitor };
    await recordStep(trx, DEMO_STEP, made as Record<string, unknown>);
    return true;
  });
}
