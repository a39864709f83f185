/**
 * The data a fuzz run calls against: the demo tenants (an installer company, its technician, an
 * owner with three plants, a read-only visitor), a system administrator, and another tenant (a
 * company and an owner with a plant, a gateway and devices) whose ids are "another tenant's".
 * The callers: the system administrator, the installer, the owner, and no one. Pools of the ids
 * and serial numbers that exist, mine and theirs, plus ones that exist nowhere.
 */
import { randomUUID } from 'node:crypto';
import { companyGrantable } from '@sunfleet/contracts';
import { DEMO_PASSWORD, demoAccounts, ensureDemo } from '../../src/bootstrap/demo.ts';
import { now } from '../../src/db/index.ts';
import { hashPassword } from '../../src/modules/auth/passwords.ts';
import { provisionGateway } from '../../src/telemetry/gateways.ts';
import { PASSWORD, type TestServer } from '../harness.ts';

export type Role = 'sysadmin' | 'installer' | 'owner' | 'nobody';
export const roles: readonly Role[] = ['sysadmin', 'installer', 'owner', 'nobody'];

export interface World {
  /** Bearer tokens by role (none for 'nobody'); `refresh` signs a caller in again. */
  tokens: Record<Role, string | null>;
  refresh(role: Role): Promise<void>;
  /** Integer ids of every kind that exist (own and another tenant's) and a few that do not. */
  ids: number[];
  sns: string[];
  uuids: string[];
}

const NONEXISTENT_IDS = [999_999, 2_147_483_647];
const NONEXISTENT_SNS = ['NOSUCHSN0001', 'A'.repeat(32)];

async function addDevices(s: TestServer, plantId: number, gatewaySn: string, prefix: string) {
  const gw = await s.db.selectFrom('gateways').select('id').where('sn', '=', gatewaySn).executeTakeFirstOrThrow();
  const t = now();
  const kinds = {
    inverter: 'sunfleet-hybrid-1p',
    battery: 'sunfleet-battery',
    meter: 'sunfleet-meter-3p',
    weather: 'sunfleet-weather',
  } as const;
  const out: Array<{ id: number; sn: string }> = [];
  for (const [kind, protocol] of Object.entries(kinds)) {
    const sn = `${prefix}${kind.slice(0, 3).toUpperCase()}1`;
    const row = await s.db
      .insertInto('devices')
      .values({
        sn,
        gateway_id: gw.id,
        plant_id: plantId,
        kind: kind as keyof typeof kinds,
        protocol_id: protocol,
        unit: null,
        alias: null,
        device_type: null,
        rated_power_w: null,
        master_device_id: null,
        last_ts: null,
        created_at: t,
        updated_at: t,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    out.push({ id: row.id, sn });
  }
  return { gatewayId: gw.id, devices: out };
}

export async function buildWorld(s: TestServer): Promise<World> {
  await ensureDemo(s.db, s.config);
  const t = now();
  const admin = await s.user({ kind: 'sysadmin' });
  const owner = await s.db.selectFrom('users').select('id').where('account', '=', demoAccounts.owner).executeTakeFirstOrThrow();
  const ownPlant = await s.db
    .selectFrom('plants')
    .select('id')
    .where('owner_user_id', '=', owner.id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await provisionGateway(s.db, { sn: 'FUZZOWNGW1', plantId: ownPlant.id });
  const own = await addDevices(s, ownPlant.id, 'FUZZOWNGW1', 'FUZZOWN');

  // Another tenant: a company with an administrator, an owner with a plant, gateway and devices.
  const theirCompany = await s.db
    .insertInto('companies')
    .values({ name: 'Other Tenant Co', permissions: JSON.stringify(companyGrantable), created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  const theirAdmin = await s.user({ kind: 'company_admin', companyId: theirCompany.id });
  const theirOwner = await s.user({ agentCompanyId: theirCompany.id });
  const theirRole = await s.db
    .insertInto('company_roles')
    .values({ company_id: theirCompany.id, name: 'Their role', created_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  const theirPlant = await s.db
    .insertInto('plants')
    .values({ name: 'Their plant', owner_user_id: theirOwner.id, company_id: theirCompany.id, created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  await provisionGateway(s.db, { sn: 'FUZZTHEIRGW1', plantId: theirPlant.id });
  const theirs = await addDevices(s, theirPlant.id, 'FUZZTHEIRGW1', 'FUZZTHEIR');

  const accounts: Record<Exclude<Role, 'nobody'>, { account: string; password: string }> = {
    sysadmin: { account: admin.account, password: PASSWORD },
    installer: { account: demoAccounts.companyAdmin, password: DEMO_PASSWORD },
    owner: { account: demoAccounts.owner, password: DEMO_PASSWORD },
  };
  const callerIds = new Set<number>();
  const tokens: Record<Role, string | null> = { sysadmin: null, installer: null, owner: null, nobody: null };
  const refresh = async (role: Role) => {
    if (role === 'nobody') return;
    const { account, password } = accounts[role];
    // Whatever the run did to the account (a new password, disabled, read-only), it is the caller again.
    await s.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(password, s.config.passwordCost), enabled: 1, read_only: 0 })
      .where('account', '=', account)
      .execute();
    const signed = await s.login(account, password);
    callerIds.add(signed.userId);
    tokens[role] = signed.access;
  };
  for (const role of roles) await refresh(role);

  const ints = async (table: 'plants' | 'users' | 'companies' | 'company_roles' | 'customer_types' | 'gateways') =>
    (await s.db.selectFrom(table).select('id').execute()).map((r) => r.id);
  // The callers' own accounts are left out of the pools: a call that deletes or disables the
  // account under a pooled id would sign the caller out for the rest of the run.
  const ids = [
    ...new Set([
      ...(await ints('plants')),
      ...(await ints('users')).filter((id) => !callerIds.has(id)),
      ...(await ints('companies')),
      ...(await ints('company_roles')),
      ...(await ints('customer_types')),
      ...(await ints('gateways')),
      ...own.devices.map((d) => d.id),
      ...theirs.devices.map((d) => d.id),
      theirRole.id,
      theirAdmin.id,
      ...NONEXISTENT_IDS,
    ]),
  ];
  const sns = [
    'FUZZOWNGW1',
    'FUZZTHEIRGW1',
    ...own.devices.map((d) => d.sn),
    ...theirs.devices.map((d) => d.sn),
    ...NONEXISTENT_SNS,
  ];
  return { tokens, refresh, ids, sns, uuids: [randomUUID(), '00000000-0000-4000-8000-000000000000'] };
}
