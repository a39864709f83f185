/** Password hashing: argon2id at OWASP's minimum (19 MiB, 2 passes, 1 lane). Never logged. */
import { hash, verify } from '@node-rs/argon2';

const OWASP = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
// Tests hash hundreds of passwords; the algorithm stays the same, only the cost drops.
const TEST = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export type PasswordCost = 'owasp' | 'test';

export const hashPassword = (password: string, cost: PasswordCost = 'owasp') =>
  hash(password, { ...(cost === 'test' ? TEST : OWASP), algorithm: 2 /* Argon2id */ });

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the account does not exist, so timing does not reveal it. */
let decoy: Promise<string> | undefined;
export const decoyHash = (cost: PasswordCost) => {
  decoy ??= hashPassword('decoy-password-never-matches', cost);
  return decoy;
};
