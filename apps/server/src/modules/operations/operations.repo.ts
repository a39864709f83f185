/** The SQL of power and diagnostics (the jobs themselves are the command channel's). */
import type { Db } from '../../db/index.ts';

/** The SN of the gateway with this id (it exists: a device's gateway). */
export async function gatewaySnById(db: Db, gatewayId: number): Promise<string> {
  const gateway = await db.selectFrom('gateways').select('sn').where('id', '=', gatewayId).executeTakeFirstOrThrow();
  return gateway.sn;
}
