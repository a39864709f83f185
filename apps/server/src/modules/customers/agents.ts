/**
 * Agents: a customer may be served by an agent, another customer named by its administrator's
 * account. The agent's accounts then see and operate what the customer is assigned (the scopes
 * in access/). The rules, in the order they are checked:
 * - an account of the customer itself: 900 (one cannot be one's own agent);
 * - a company user's account: 901 (internal employees are not agents; only the company
 *   administrator's account names its company as an agent);
 * - any other account that is not a company administrator's (an owner, an operator, none): 4;
 * - a customer that is itself an agent of customers: 902 (its agent would be a company manager's
 *   manager: one level of agents);
 * - an agent that is itself served by an agent: 202 (the agent exists above it: one level).
 */

import { ErrorCode } from '@sunfleet/contracts';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import { normalise } from '../auth/accounts.service.ts';
import { accountNamed, agentOf, customersServed, lockCompanies } from './customers.repo.ts';

const NOT_AN_AGENT = 'agentAccount: only a company administrator’s account can be an agent';

/**
 * The company an agent account names for `customer.id` (null: a customer being created, whose
 * administrator account is `ownAccount`), after the agent rules. Run it inside the transaction
 * that stores the agent: it locks both companies' rows first (a no-op update), so two
 * assignments that would make a chain between them together wait for each other and the
 * second sees the first.
 */
export async function agentCompanyFor(
  db: Transaction<Database>,
  customer: { id: number | null; ownAccount?: string },
  agentAccount: string,
): Promise<number> {
  if (customer.ownAccount !== undefined && normalise(customer.ownAccount) === normalise(agentAccount))
    return fail(ErrorCode.ownAgent);
  const agent = await accountNamed(db, agentAccount);
  if (!agent || agent.company_id === null) return fail(ErrorCode.validation, NOT_AN_AGENT);
  if (customer.id !== null && agent.company_id === customer.id) return fail(ErrorCode.ownAgent);
  if (agent.kind === 'company_user') return fail(ErrorCode.employeeAgent);
  if (agent.kind !== 'company_admin') return fail(ErrorCode.validation, NOT_AN_AGENT);
  const locked = customer.id === null ? [agent.company_id] : [agent.company_id, customer.id];
  await lockCompanies(db, locked);
  if (customer.id !== null) {
    const serves = await customersServed(db, customer.id);
    if (serves > 0) return fail(ErrorCode.managersManager);
  }
  const above = await agentOf(db, agent.company_id);
  if (above?.agent_company_id != null) return fail(ErrorCode.agentExists);
  return agent.company_id;
}
