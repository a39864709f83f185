/**
 * Gateways in stock, the rules: create one (form, or "import one" for a customer), create a
 * batch or import a file (checked row by row, written in one transaction: mode 'valid' the rows
 * without a problem, mode 'all' every row or none), assign to a customer or agent, set the
 * protocol, delete (refused with 301 while bound to a plant). Each change is recorded with
 * `recordAdminChange` in its transaction (an import or batch as one record: the count and SNs).
 *
 * A gateway made here gets a new device secret (192 random bits) and claim key (128 random
 * bits, `newClaimKey`); the answer carries both once, the store keeps their SHA-256 only, and the
 * plant binding (`plants/gateway-binding.ts`) compares a typed key's hash in constant time.
 */
import { ErrorCode, type gatewayStockApi, type Language } from '@sunfleet/contracts';
import type { Logger } from 'pino';
import type { Static } from 'typebox';
import type { Caller } from '../../access/caller.ts';
import { recordAdminChange } from '../../audit/admin.ts';
import { StoreUnavailableError } from '../../db/faults.ts';
import { type Db, now } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import type { BrokerAccounts } from '../../telemetry/broker/dynsec.ts';
import { newClaimKey, newGatewaySecret } from '../../telemetry/gateways.ts';
import { devicesChanged } from '../devices/list.ts';
import { type Checked, checkRows, type GoodRow, problemCode, protocolOf, type RawRow } from './rows.ts';
import * as repo from './stock.repo.ts';
import { texts } from './texts.ts';

type StockItem = Static<typeof gatewayStockApi.StockItem>;
/** A gateway just made; the route adds the firmware key every gateway is provisioned with. */
export type Created = Omit<Static<typeof gatewayStockApi.CreatedGateway>, 'firmwareKey'>;
/** An import's result; the route adds the firmware key to each gateway. */
export type ImportResult = Omit<Static<typeof gatewayStockApi.StockImportResult>, 'gateways'> & { gateways: Created[] };
export type ImportMode = Static<typeof gatewayStockApi.ImportMode>;

/** What a change tells the rest of the system: the lists' caches, ingest's gateway cache, the brokers. */
export interface StockEffects {
  forget(gatewaySns: readonly string[]): void;
  /** Deleted: their secrets no longer let them in, and their live sessions end. */
  revoke(gatewaySns: readonly string[]): void;
  /** New gateways' broker accounts, made before their rows commit (a refusal writes nothing). */
  provision?(gateways: readonly { sn: string; secret: string }[]): Promise<void>;
}

const itemRow = (item: StockItem, row: number): RawRow => ({
  row,
  sn: item.sn,
  customer: item.customerId == null ? '' : String(item.customerId),
  protocol: item.protocol ?? '',
  alias: item.alias ?? '',
});

/** A customer named by the call (not a row): 404 when there is no such company. */
async function requireCustomer(db: Db, id: number | null | undefined): Promise<number | null> {
  if (id == null) return null;
  if (!(await repo.customerExists(db, id))) fail(ErrorCode.notFound);
  return id;
}

/** `import/one/check`: the one gateway's problems as row 1 of a file. */
export async function checkOne(db: Db, customerId: number | undefined, item: Omit<StockItem, 'customerId'>) {
  return (await checkRows(db, [itemRow({ ...item, customerId }, 1)], null)).report;
}

/** `gateway/import/check`: the file's rows checked (404 when the call's customer does not exist). */
export async function checkMany(db: Db, rows: readonly RawRow[], customerId: number | null) {
  return (await checkRows(db, rows, await requireCustomer(db, customerId))).report;
}

/** Create and audit the good rows inside `trx`; the created gateways with their secrets. */
async function writeRows(trx: Db, caller: Caller, good: readonly GoodRow[], action: string, companyId: number | null) {
  const t = now();
  const made = good.map((g) => ({ ...g, secret: newGatewaySecret(), claimKey: newClaimKey() }));
  const ids = await repo.insertGateways(trx, made, t);
  const created: Created[] = made.map((m) => ({ id: ids.get(m.sn)!, sn: m.sn, claimKey: m.claimKey, secret: m.secret }));
  if (created.length === 1) {
    const g = made[0]!;
    await recordAdminChange(
      trx,
      {
        actorUserId: caller.user.id,
        companyId: g.companyId,
        entity: 'gateway_stock',
        entityId: created[0]!.id,
        action,
        after: { sn: g.sn, customerId: g.companyId, protocol: g.protocol, alias: g.alias },
      },
      t,
    );
  } else if (created.length > 1) {
    await recordAdminChange(
      trx,
      {
        actorUserId: caller.user.id,
        companyId,
        entity: 'gateway_stock',
        entityId: action,
        action,
        after: { count: created.length, sns: made.map((m) => m.sn) },
      },
      t,
    );
  }
  return created;
}

/**
 * Check and write in one transaction, so that what is written is what was checked (a row taken
 * meanwhile by another import fails the unique SN: 301, nothing written).
 */
async function checkAndWrite(
  db: Db,
  caller: Caller,
  rows: readonly RawRow[],
  defaultCustomer: number | null,
  mode: ImportMode,
  action: string,
  effects: StockEffects,
): Promise<{ checked: Checked; created: Created[] }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const checked = await checkRows(trx, rows, defaultCustomer);
      const refused = mode === 'all' && checked.report.problems.length > 0;
      const created = refused ? [] : await writeRows(trx, caller, checked.good, action, defaultCustomer);
      if (created.length > 0) await effects.provision?.(created);
      return { checked, created };
    });
  } catch (err) {
    if (repo.isUniqueViolation(err)) fail(ErrorCode.gatewayUsed);
    throw err;
  }
}

/** `gateway/create` and `gateway/import/one`: one gateway; its first problem is the answer (4, 301, 404). */
export async function createOne(
  db: Db,
  caller: Caller,
  item: StockItem,
  lan: Language,
  effects: StockEffects,
  action = 'create',
): Promise<Created> {
  await requireCustomer(db, item.customerId);
  const { checked, created } = await checkAndWrite(db, caller, [itemRow(item, 1)], null, 'all', action, effects);
  const problem = checked.report.problems[0];
  if (problem) fail(problemCode(problem), texts(lan).problems[problem.problem]);
  effects.forget(created.map((c) => c.sn));
  return created[0]!;
}

/** `gateway/batch`, `gateway/import/batch`: the rows checked, then written as the mode says. */
export async function createMany(
  db: Db,
  caller: Caller,
  rows: readonly RawRow[],
  customerId: number | null,
  mode: ImportMode,
  effects: StockEffects,
  action: 'batch' | 'import',
): Promise<ImportResult> {
  const defaultCustomer = await requireCustomer(db, customerId);
  const { checked, created } = await checkAndWrite(db, caller, rows, defaultCustomer, mode, action, effects);
  effects.forget(created.map((c) => c.sn));
  return { mode, written: created.length, report: checked.report, gateways: created };
}

export const batchRows = (items: readonly StockItem[]): RawRow[] => items.map((item, i) => itemRow(item, i + 1));

/** Live gateways of `ids`; 305 when one of them is missing (or deleted). */
async function requireGateways(db: Db, ids: readonly number[]) {
  const rows = await repo.stockRows(db, ids);
  if (rows.length !== new Set(ids).size) fail(ErrorCode.gatewayMissing);
  return rows;
}

/** `gateway/assign`: to a customer or agent company, or to none. */
export async function assign(db: Db, caller: Caller, ids: number[], customerId: number | null, effects: StockEffects) {
  await requireCustomer(db, customerId);
  const rows = await db.transaction().execute(async (trx) => {
    const found = await requireGateways(trx, ids);
    const t = now();
    await repo.setCompany(trx, ids, customerId, t);
    for (const r of found) {
      await recordAdminChange(
        trx,
        {
          actorUserId: caller.user.id,
          companyId: customerId ?? r.company_id,
          entity: 'gateway_stock',
          entityId: r.id,
          action: 'assign',
          before: { customerId: r.company_id },
          after: { customerId },
        },
        t,
      );
    }
    return found;
  });
  effects.forget(rows.map((r) => r.sn));
  return { updated: rows.length };
}

/** `gateway/updateGatewayProtocol`: a known protocol id (4 otherwise) or null. */
export async function updateProtocol(
  db: Db,
  caller: Caller,
  ids: number[],
  protocolText: string | null,
  lan: Language,
  effects: StockEffects,
) {
  const protocol = protocolText === null || protocolText.trim() === '' ? null : protocolOf(protocolText);
  if (protocolText !== null && protocolText.trim() !== '' && protocol === null)
    fail(ErrorCode.validation, texts(lan).problems.protocolUnknown);
  const rows = await db.transaction().execute(async (trx) => {
    const found = await requireGateways(trx, ids);
    const t = now();
    await repo.setProtocol(trx, ids, protocol, t);
    for (const r of found) {
      await recordAdminChange(
        trx,
        {
          actorUserId: caller.user.id,
          companyId: r.company_id,
          entity: 'gateway_stock',
          entityId: r.id,
          action: 'protocol',
          before: { protocol: r.protocol_id },
          after: { protocol },
        },
        t,
      );
    }
    return found;
  });
  effects.forget(rows.map((r) => r.sn));
  return { updated: rows.length };
}

/** `gateway/{id}/delete`: 305 no such gateway, 301 while it is bound to a plant. */
export async function deleteOne(db: Db, caller: Caller, id: number, effects: StockEffects) {
  const sn = await db.transaction().execute(async (trx) => {
    const [row] = await requireGateways(trx, [id]);
    if (row!.plant_id !== null) fail(ErrorCode.gatewayUsed);
    const t = now();
    // The statement re-checks "not bound": a binding that came in between refuses the delete.
    if (!(await repo.markDeleted(trx, id, t))) fail(ErrorCode.gatewayUsed);
    await recordAdminChange(
      trx,
      {
        actorUserId: caller.user.id,
        companyId: row!.company_id,
        entity: 'gateway_stock',
        entityId: id,
        action: 'delete',
        before: { sn: row!.sn, customerId: row!.company_id, protocol: row!.protocol_id },
      },
      t,
    );
    return row!.sn;
  });
  effects.forget([sn]);
  effects.revoke([sn]);
  return null;
}

/** The effects of a change: this process's list caches dropped, ingest and the brokers told (every process's, through main.ts). */
export const processEffects = (
  ingest?: { forget(opts?: { gatewaySn?: string }): void },
  revokeGateways?: (sns: readonly string[]) => void,
  accounts?: BrokerAccounts,
  log?: Pick<Logger, 'error'>,
): StockEffects => ({
  revoke(sns) {
    revokeGateways?.(sns);
    // Removed after the delete committed; one missed is removed at the next start (dynsec.ts `prepare`).
    accounts?.remove(sns).catch((err: Error) => log?.error({ err: err.message, sns }, 'broker accounts not removed'));
  },
  ...(accounts
    ? {
        provision: async (gateways) => {
          try {
            await accounts.provision(gateways);
          } catch (err) {
            log?.error({ err: (err as Error).message }, 'broker accounts not made: nothing written');
            // A dependency that did not answer: 503, like the store's own faults; the transaction rolls back.
            throw new StoreUnavailableError('the MQTT broker did not take the gateways’ accounts');
          }
        },
      }
    : {}),
  forget(sns) {
    devicesChanged();
    if (!ingest) return;
    if (sns.length > 100) ingest.forget();
    else for (const sn of sns) ingest.forget({ gatewaySn: sn });
  },
});
