/**
 * Whether something else still needs a firmware image (an upgrade rollout that sends it): other
 * modules register a check here, and deleting an image asks every registered check first (4003
 * when one says yes). The checks read the store, so every server process answers the same.
 */
import type { Db } from '../../db/index.ts';

/** Answers whether the image `firmwareId` is in use (read inside the deleting transaction). */
export type FirmwareUseCheck = (db: Db, firmwareId: number) => Promise<boolean>;

const checks = new Set<FirmwareUseCheck>();

/** Registers a check; the returned function takes it back out (tests). */
export function registerFirmwareUseCheck(check: FirmwareUseCheck): () => void {
  checks.add(check);
  return () => {
    checks.delete(check);
  };
}

/** Whether any registered check says the image is in use. */
export async function firmwareInUse(db: Db, firmwareId: number): Promise<boolean> {
  for (const check of checks) if (await check(db, firmwareId)) return true;
  return false;
}
