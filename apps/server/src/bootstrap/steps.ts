/**
 * The record of first-start and demo steps done (the store file of bootstrap/): a step is found
 * by its fixed name, and what it made by the ids it recorded, never by a name that can be edited.
 */
import type { Db } from '../db/index.ts';
import { now } from '../db/index.ts';

type Runner = Pick<Db, 'selectFrom' | 'insertInto' | 'updateTable'>;

/** What a done step recorded (parsed JSON), or null when it has not been done. */
export async function stepDone<T = Record<string, unknown>>(db: Runner, name: string): Promise<T | null> {
  const row = await db.selectFrom('bootstrap_steps').select('value').where('name', '=', name).executeTakeFirst();
  return row ? (JSON.parse(row.value) as T) : null;
}

/**
 * Claim a step: true for the one start that records it, false when it is recorded already (also
 * by another process at the same moment; inside a transaction, it waits for that one to end).
 */
export async function claimStep(db: Runner, name: string, value: Record<string, unknown> = {}): Promise<boolean> {
  const made = await db
    .insertInto('bootstrap_steps')
    .values({ name, value: JSON.stringify(value), created_at: now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('name')
    .executeTakeFirst();
  return made !== undefined;
}

/** Record what a claimed step made. */
export async function recordStep(db: Runner, name: string, value: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('bootstrap_steps')
    .set({ value: JSON.stringify(value) })
    .where('name', '=', name)
    .execute();
}
