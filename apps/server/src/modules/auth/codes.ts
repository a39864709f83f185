/**
 * Verification codes: 6 digits, stored hashed, valid 10 minutes, single use, at most 5 wrong
 * tries. Asking again replaces the earlier code. Codes for accounts that do not exist are not
 * sent, but the caller is answered the same way.
 */
import { randomInt } from 'node:crypto';
import { ErrorCode, limits } from '@sunfleet/contracts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import * as repo from './sessions.repo.ts';
import { sha256 } from './sessions.ts';

export type CodePurpose = 'signup' | 'reset' | 'notify';
const { ttlMs, maxTries } = limits.verificationCode;

const codeHash = (account: string, purpose: string, code: string) => sha256(`${purpose}:${account}:${code}`);

export async function issueCode(db: Db, account: string, purpose: CodePurpose): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const t = now();
  await db.transaction().execute(async (trx) => {
    await repo.replaceCode(trx, {
      account,
      purpose,
      code_hash: codeHash(account, purpose, code),
      expires_at: t + ttlMs,
      created_at: t,
    });
  });
  return code;
}

export type CodeCheck = 'ok' | 'wrong' | 'expired';

/**
 * Check a code; with `consume`, a right code is used up. A wrong try counts; after the fifth
 * the code is dead (answers 'wrong' even for the right digits). No code at all is 'wrong'.
 */
export async function checkCode(
  db: Db,
  account: string,
  purpose: CodePurpose,
  code: string,
  consume: boolean,
): Promise<CodeCheck> {
  return db.transaction().execute(async (trx) => {
    const row = await repo.newestCode(trx, account, purpose);
    // Only the newest code counts: once it is used, an older one (left by two requests at once) is not revived.
    if (!row || row.used_at !== null || row.attempts >= maxTries) return 'wrong';
    if (row.code_hash !== codeHash(account, purpose, code)) {
      // Counted in SQL, not from the row read above: concurrent wrong tries cannot share one count.
      await repo.countWrongTry(trx, row.id);
      return 'wrong';
    }
    if (row.expires_at <= now()) return 'expired';
    if (!consume) return 'ok';
    // Used up only if still unused and alive: of two concurrent uses of one code, one wins.
    return (await repo.useCode(trx, row.id, maxTries, now())) ? 'ok' : 'wrong';
  });
}

export const codeError = (result: CodeCheck) => (result === 'expired' ? ErrorCode.codeExpired : ErrorCode.codeWrong);
