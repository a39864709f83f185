/**
 * SQL for plants: the select behind the list and the detail (the plant, its owner, its company
 * or the owner's agent company, the caller's share), and the mapping to the contract types.
 * Contacts (owner account, contact name and phone) are shown only to callers who can operate
 * the plant: a visitor or a read-only account sees none.
 */
import type { plantsApi } from '@sunfleet/contracts';
import { type Insertable, sql, type Updateable } from 'kysely';
import type { Static } from 'typebox';
import type { Caller } from '../../access/caller.ts';
import { plantsVisible } from '../../access/scopes.ts';
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import type { PlantsTable, ShareRole } from '../../db/schema.ts';
import { iso, localDay, localTodaySql } from '../../time/index.ts';

export type PlantListItem = Static<typeof plantsApi.PlantListItem>;
export type PlantDetail = Static<typeof plantsApi.PlantDetail>;
type Role = PlantListItem['role'];

/** Power now: an offline plant produces nothing, whatever its last reading said. */
export const powerSql = sql<
  number | null
>`(case when plants.status = 'offline' and plants.power_w is not null then 0 else plants.power_w end)`;
/** Energy of the plant-local today: the stored day's energy if that day is today. */
export const todayEnergySql = (at = Date.now()) =>
  sql<number>`(case when plants.energy_day = ${localTodaySql('plants.timezone', at)} then plants.energy_today_wh else 0 end)`;

/**
 * Plants with everything a list row shows, WITHOUT the visibility scope: use `plantRows`, or
 * pass only ids that came out of a scoped query (the list's first step).
 */
function rowsUnscoped(db: Db, caller: Caller) {
  return (
    db
      .selectFrom('plants')
      .leftJoin('users as owner', 'owner.id', 'plants.owner_user_id')
      // The plant's own company, else the owner's agent company (two joins: each uses the key).
      .leftJoin('companies as plant_company', 'plant_company.id', 'plants.company_id')
      .leftJoin('companies as agent_company', 'agent_company.id', 'owner.agent_company_id')
      .leftJoin('plant_shares as myshare', (join) =>
        join.onRef('myshare.plant_id', '=', 'plants.id').on('myshare.user_id', '=', caller.user.id),
      )
      .select([
        'plants.id',
        'plants.name',
        'plants.alias',
        'plants.status',
        'plants.type',
        'plants.capacity',
        'plants.energy_day',
        'plants.energy_today_wh',
        'plants.energy_total_wh',
        'plants.last_data_at',
        'plants.created_at',
        'plants.owner_user_id',
        'plants.company_id',
        'plants.thumbnail_url',
        'plants.address',
        'plants.timezone',
        'owner.account as owner_account',
        'owner.nickname as owner_nickname',
        'owner.agent_company_id as owner_agent_company_id',
        // The agents of those companies act for them (access/scopes.ts).
        'plant_company.agent_company_id as plant_company_agent_id',
        'agent_company.agent_company_id as owner_agent_agent_id',
        sql<number | null>`coalesce(plant_company.id, agent_company.id)`.as('company_ref_id'),
        sql<string | null>`coalesce(plant_company.name, agent_company.name)`.as('company_name'),
        'myshare.role as share_role',
        powerSql.as('power'),
      ])
  );
}

/** The visible plants with everything a list row shows. Filters and order are added by the caller. */
export const plantRows = (db: Db, caller: Caller) => rowsUnscoped(db, caller).where((eb) => plantsVisible(eb, caller));

/** The rows of plant ids the caller's scoped query returned (no second pass through the scope). */
export const rowsOfScopedIds = (db: Db, caller: Caller, ids: number[]) => rowsUnscoped(db, caller).where('plants.id', 'in', ids);

export type PlantRow = Awaited<ReturnType<ReturnType<typeof plantRows>['executeTakeFirstOrThrow']>>;

export function roleOf(
  row: Pick<
    PlantRow,
    'owner_user_id' | 'company_id' | 'owner_agent_company_id' | 'plant_company_agent_id' | 'owner_agent_agent_id' | 'share_role'
  >,
  caller: Caller,
): Role {
  const { user } = caller;
  if (row.owner_user_id === user.id) return 'owner';
  const inCompany = (user.kind === 'company_admin' || user.kind === 'company_user') && user.company_id !== null;
  const reaching = [row.company_id, row.owner_agent_company_id, row.plant_company_agent_id, row.owner_agent_agent_id];
  if (inCompany && reaching.includes(user.company_id)) return 'company';
  if (row.share_role) return row.share_role;
  return 'admin';
}

export const canOperate = (role: Role, caller: Caller) => !caller.user.read_only && role !== 'visitor';
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export function toListItem(row: PlantRow, caller: Caller, alarms: number): PlantListItem {
  const role = roleOf(row, caller);
  const contacts = canOperate(role, caller);
  return {
    id: row.id,
    name: row.name,
    alias: row.alias,
    status: row.status as PlantListItem['status'],
    type: row.type as PlantListItem['type'],
    capacity: Number(row.capacity),
    power: num(row.power),
    // The plant's local today, worked out here for the page's rows (the list's SQL does it only to sort).
    todayEnergy: row.energy_day !== null && row.energy_day === localDay(row.timezone) ? Number(row.energy_today_wh) : 0,
    totalEnergy: Number(row.energy_total_wh),
    lastUpdate: iso(row.last_data_at),
    createdAt: iso(row.created_at)!,
    alarms,
    owner:
      row.owner_user_id === null
        ? null
        : { id: row.owner_user_id, account: contacts ? row.owner_account : null, nickname: row.owner_nickname },
    company: row.company_ref_id === null ? null : { id: row.company_ref_id, name: row.company_name ?? '' },
    role,
    thumbnail: row.thumbnail_url,
    address: row.address,
    timezone: row.timezone,
    canEdit: contacts,
    // Owner rights: the owner, or a user of the company that holds a company plant.
    canManage:
      !caller.user.read_only &&
      (role === 'owner' || (role === 'company' && row.company_id !== null && row.company_id === caller.user.company_id)),
  };
}

/** Open fault and warning events per plant. */
export async function openAlarms(db: Db, plantIds: number[]): Promise<Map<number, number>> {
  if (plantIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('events')
    .select((eb) => ['events.plant_id', eb.fn.countAll<number>().as('n')])
    .where('events.plant_id', 'in', plantIds)
    .where('events.ended_at', 'is', null)
    .where('events.level', 'in', ['fault', 'warning'])
    .groupBy('events.plant_id')
    .execute();
  return new Map(rows.map((r) => [r.plant_id!, Number(r.n)]));
}

/** One visible plant with every field (undefined if the caller cannot see it). */
export async function plantDetail(db: Db, caller: Caller, id: number): Promise<PlantDetail | undefined> {
  const row = await plantRows(db, caller)
    .select([
      'plants.commissioning_date',
      'plants.longitude',
      'plants.latitude',
      'plants.picture_url',
      'plants.currency',
      'plants.valuation_method',
      'plants.price',
      'plants.price_segments',
      'plants.total_investment',
      'plants.income_total',
      'plants.contact_name',
      'plants.contact_phone',
      'plants.updated_at',
    ])
    .where('plants.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const [alarms, gateways] = await Promise.all([
    openAlarms(db, [id]),
    db
      .selectFrom('gateways')
      .select(['sn', 'alias', 'online', 'last_online_at'])
      .where('plant_id', '=', id)
      .where('deleted_at', 'is', null)
      .orderBy('sn')
      .execute(),
  ]);
  const item = toListItem(row, caller, alarms.get(id) ?? 0);
  const contacts = item.canEdit;
  return {
    ...item,
    commissioningDate: row.commissioning_date,
    longitude: num(row.longitude),
    latitude: num(row.latitude),
    picture: row.picture_url,
    currency: row.currency,
    valuationMethod: row.valuation_method,
    price: num(row.price),
    priceSegments: parseJson(row.price_segments, []),
    totalInvestment: num(row.total_investment),
    income: num(row.income_total),
    contactName: contacts ? row.contact_name : null,
    contactPhone: contacts ? row.contact_phone : null,
    gateways: gateways.map((g) => ({
      sn: g.sn,
      alias: g.alias,
      online: Number(g.online) === 1,
      lastOnlineAt: iso(g.last_online_at),
    })),
    updatedAt: iso(row.updated_at)!,
  };
}

// ——— writes ———

export type PlantInsert = Omit<Insertable<PlantsTable>, 'id'>;

export async function insertPlant(trx: Db, values: PlantInsert): Promise<number> {
  const row = await trx.insertInto('plants').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** What an edit needs of the stored plant. */
export const editablePlant = (db: Db, id: number) =>
  db
    .selectFrom('plants')
    .select(['valuation_method', 'price_segments', 'latitude', 'longitude', 'picture_url', 'thumbnail_url'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

export const updatePlant = (trx: Db, id: number, set: Updateable<PlantsTable>) =>
  trx.updateTable('plants').set(set).where('id', '=', id).execute();

/** Soft-delete: gateways and devices unbound, shares ended, the row marked deleted. */
export async function softDeletePlant(trx: Db, id: number, t: number) {
  await trx.updateTable('gateways').set({ plant_id: null, updated_at: t }).where('plant_id', '=', id).execute();
  await trx.updateTable('devices').set({ plant_id: null, updated_at: t }).where('plant_id', '=', id).execute();
  await trx.deleteFrom('plant_shares').where('plant_id', '=', id).execute();
  await trx.updateTable('plants').set({ deleted_at: t, updated_at: t }).where('id', '=', id).execute();
}

// ——— shares and the accounts they name ———

function sharesOf(db: Db, plantId: number) {
  return db
    .selectFrom('plant_shares')
    .innerJoin('users', 'users.id', 'plant_shares.user_id')
    .select(['plant_shares.user_id', 'plant_shares.role', 'plant_shares.created_at', 'users.account'])
    .where('plant_shares.plant_id', '=', plantId);
}
export type ShareRow = Awaited<ReturnType<ReturnType<typeof sharesOf>['executeTakeFirstOrThrow']>>;

export const shareOf = (db: Db, plantId: number, userId: number) =>
  sharesOf(db, plantId).where('plant_shares.user_id', '=', userId).executeTakeFirstOrThrow();

export const sharesOfPlant = (db: Db, plantId: number) =>
  sharesOf(db, plantId).orderBy('plant_shares.created_at').orderBy('plant_shares.user_id').execute();

/** Share the plant with the user, or change the role of their share. */
export const upsertShare = (db: Db, plantId: number, userId: number, role: ShareRole, t: number) =>
  db
    .insertInto('plant_shares')
    .values({ plant_id: plantId, user_id: userId, role, created_at: t })
    .onConflict((oc) => oc.columns(['plant_id', 'user_id']).doUpdateSet({ role }))
    .execute();

export const deleteShare = (db: Db, plantId: number, userId: number) =>
  db.deleteFrom('plant_shares').where('plant_id', '=', plantId).where('user_id', '=', userId).execute();

/** An account by its name (lower-cased). */
export const accountByName = (db: Db, account: string) =>
  db
    .selectFrom('users')
    .select(['id', 'account', 'nickname', 'kind', 'language', 'enabled'])
    .where('account', '=', account.trim().toLowerCase())
    .executeTakeFirst();
