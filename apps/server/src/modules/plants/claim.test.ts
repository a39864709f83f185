/**
 * Claiming a gateway by its label key is one act wherever it happens: `POST plant` with a gateway
 * answers exactly as `POST plant/{id}/gateway` does, needs the same permission, and draws on the
 * same attempt budget as checking and binding.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, company, createPlant, gateway, uniqueName } from '../../../test/kits/plants.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ rateLimits: true });
});
afterAll(() => s.close());

const post = (who: Account, url: string, body?: unknown) => s.call(who.token, 'POST', url, body);
const newPlant = (who: Account, claim?: { sn: string; key: string }) =>
  post(who, '/api/v1/plant', {
    name: uniqueName(),
    capacity: 1,
    type: 0,
    timezone: 'UTC',
    ...(claim ? { gateway: claim } : {}),
  });
const plantsNamed = async (owner: Account) =>
  (await s.db.selectFrom('plants').select('id').where('owner_user_id', '=', owner.id).execute()).length;

describe('POST plant with a gateway', () => {
  it('refuses each claim with the code POST plant/{id}/gateway gives, and creates nothing', async () => {
    const owner = await account(s);
    const stranger = await account(s);
    const taken = await gateway(s, await createPlant(s, stranger), 'KEY-TAKEN');
    const free = await gateway(s, null, 'KEY-FREE');
    const target = await createPlant(s, owner);
    const plantsBefore = await plantsNamed(owner);
    for (const claim of [
      { sn: taken.sn, key: 'KEY-TAKEN' },
      { sn: taken.sn, key: 'WRONG' },
      { sn: free.sn, key: 'WRONG' },
      { sn: 'NOSUCHGATEWAY', key: 'KEY-FREE' },
      { sn: ` ${free.sn}`, key: 'KEY-FREE' },
    ]) {
      const bind = (await post(owner, `/api/v1/plant/${target}/gateway`, claim)).body;
      const create = (await newPlant(owner, claim)).body;
      expect(create.code, JSON.stringify(claim)).toBe(bind.code);
      expect(create.code).not.toBe(ErrorCode.ok);
    }
    expect(await plantsNamed(owner)).toBe(plantsBefore);
    expect(
      (await s.db.selectFrom('gateways').select('plant_id').where('id', '=', free.id).executeTakeFirstOrThrow()).plant_id,
    ).toBeNull();
  });

  it('needs the gateway permission, as binding does (2), and binds nothing without it', async () => {
    const companyId = await company(s);
    const t = Date.now();
    const role = await s.db
      .insertInto('company_roles')
      .values({
        company_id: companyId,
        name: 'Creator',
        permissions: JSON.stringify(['station.view', 'station.create', 'station.edit']),
        created_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const creator = await account(s, { kind: 'company_user', companyId, roleId: role.id });
    const free = await gateway(s, null, 'KEY-PERM');
    const plantId = ((await newPlant(creator)).body.data as { id: number }).id;
    expect((await post(creator, `/api/v1/plant/${plantId}/gateway`, { sn: free.sn, key: 'KEY-PERM' })).body.code).toBe(
      ErrorCode.noPermission,
    );
    expect((await newPlant(creator, { sn: free.sn, key: 'KEY-PERM' })).body.code).toBe(ErrorCode.noPermission);
    expect(
      (await s.db.selectFrom('gateways').select('plant_id').where('id', '=', free.id).executeTakeFirstOrThrow()).plant_id,
    ).toBeNull();
    expect((await s.db.selectFrom('plants').select('id').where('company_id', '=', companyId).execute()).map((r) => r.id)).toEqual(
      [plantId],
    );
  });

  it('shares one attempt budget with check and bind: 20 tries in 10 minutes, then 429 on every claim route', async () => {
    const guesser = await account(s);
    const target = await createPlant(s, guesser);
    const victim = await gateway(s, null, 'KEY-SECRET');
    let n = 0;
    const attempts = [
      () => post(guesser, '/api/v1/gateways/check', { sn: victim.sn, key: `GUESS${n++}` }),
      () => post(guesser, `/api/v1/plant/${target}/gateway`, { sn: victim.sn, key: `GUESS${n++}` }),
      () => newPlant(guesser, { sn: victim.sn, key: `GUESS${n++}` }),
    ];
    for (let i = 0; i < 20; i++) {
      const res = await attempts[i % 3]!();
      expect(res.status, `attempt ${i + 1}`).toBe(200);
      expect(res.body.code).toBe(ErrorCode.gatewayCredentials);
    }
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status).toBe(429);
      expect(res.body.code).toBe(ErrorCode.tooManyRequests);
    }
    // Creating a plant without a gateway claims nothing and is not held back.
    expect((await newPlant(guesser)).body.code).toBe(ErrorCode.ok);
    // Another account keeps its own budget.
    const other = await account(s);
    expect((await post(other, '/api/v1/gateways/check', { sn: victim.sn, key: 'KEY-SECRET' })).body.code).toBe(ErrorCode.ok);
  });
});
