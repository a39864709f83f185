/**
 * The check every gateway to be created goes through, whether it comes from a file, a batch or a
 * form: SN format (1 to 32 of A–Z a–z 0–9 _ -), an SN twice in the input, an SN already in the
 * store (a deleted gateway's SN is free again), the customer exists (by id, or a file's cell by
 * the company's id or exact name), the protocol is known, the alias at most 32 bytes. Every row
 * gets every problem it has, so the report names them all at once.
 */
import { ErrorCode, type gatewayStockApi, isDeviceAlias, SN_PATTERN } from '@sunfleet/contracts';
import { getProtocol } from '@sunfleet/protocols';
import type { Static } from 'typebox';
import type { Db } from '../../db/index.ts';
import { customersByRef, takenSns } from './stock.repo.ts';

type Problem = Static<typeof gatewayStockApi.RowProblem>;
export type StockReport = Static<typeof gatewayStockApi.StockReport>;

const SN = new RegExp(SN_PATTERN);

/** One row as read: its number and the cells as text (customer: an id, a name or blank). */
export interface RawRow {
  row: number;
  sn: string;
  customer: string;
  protocol: string;
  alias: string;
}

/** A row that passed: what is written. */
export interface GoodRow {
  row: number;
  sn: string;
  companyId: number | null;
  protocol: string | null;
  alias: string | null;
}

export interface Checked {
  report: StockReport;
  good: GoodRow[];
}

/** The protocol id of a cell (ids are matched without regard to case), or null when unknown. */
export function protocolOf(text: string): string | null {
  const id = text.trim().toLowerCase();
  return getProtocol(id) ? id : null;
}

/**
 * Check the rows against each other and the store. `defaultCustomer`: the customer of rows whose
 * cell is blank (already known to exist, or null).
 */
export async function checkRows(db: Db, rows: readonly RawRow[], defaultCustomer: number | null): Promise<Checked> {
  const problems: Problem[] = [];
  const sns = rows.map((r) => r.sn.trim());
  const firstRowOf = new Map<string, number>();
  const taken = await takenSns(
    db,
    sns.filter((sn) => SN.test(sn)),
  );
  const customers = await customersByRef(
    db,
    rows.map((r) => r.customer.trim()).filter((c) => c !== ''),
  );
  const good: GoodRow[] = [];
  for (const [i, r] of rows.entries()) {
    const sn = sns[i]!;
    const before = problems.length;
    const add = (problem: Problem['problem'], extra: Partial<Problem> = {}) =>
      problems.push({ row: r.row, sn, problem, ...extra });
    if (sn === '') add('snMissing');
    else if (!SN.test(sn)) add('snFormat');
    else {
      const first = firstRowOf.get(sn);
      if (first !== undefined) add('snRepeated', { firstRow: first });
      else firstRowOf.set(sn, r.row);
      if (taken.has(sn)) add('snExists');
    }
    const customerText = r.customer.trim();
    let companyId = defaultCustomer;
    if (customerText !== '') {
      const found = customers.get(customerText);
      if (found === undefined) add('customerMissing', { value: customerText });
      else companyId = found;
    }
    const protocolText = r.protocol.trim();
    const protocol = protocolText === '' ? null : protocolOf(protocolText);
    if (protocolText !== '' && protocol === null) add('protocolUnknown', { value: protocolText });
    const alias = r.alias.trim();
    if (!isDeviceAlias(alias)) add('aliasTooLong');
    if (problems.length === before) good.push({ row: r.row, sn, companyId, protocol, alias: alias === '' ? null : alias });
  }
  return { report: { rows: rows.length, valid: good.length, problems }, good };
}

/** The first problem of a one-gateway check as the call's answer: 301 a taken SN, 404 no such customer, else 4 naming it. */
export function problemCode(problem: Problem): ErrorCode {
  if (problem.problem === 'snExists') return ErrorCode.gatewayUsed;
  if (problem.problem === 'customerMissing') return ErrorCode.notFound;
  return ErrorCode.validation;
}
