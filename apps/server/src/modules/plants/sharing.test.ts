/** Sharing: who may, the refusal codes, and what each role can do (transfer requests: transfers.test.ts). */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import { PASSWORD, startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, company, createPlant } from '../../../test/kits/plants.ts';

let s: TestServer;
let owner: Account;
let friend: Account;
let stranger: Account;
let companyAdmin: Account;
let companyUser: Account;
let companyId: number;
let plant: number;

const post = (who: Account, url: string, body?: unknown) => s.call(who.token, 'POST', url, body);
const get = (who: Account, url: string) => s.call(who.token, 'GET', url);
/** The caller's row of `id` in the plant list. */
const listRow = async (who: Account, id: number) =>
  ((await get(who, '/api/v1/plants?size=100')).body.data as { list: { id: number }[] }).list.find((p) => p.id === id);
const share = (who: Account, id: number, target: string, role = 'visitor') =>
  post(who, `/api/v1/plant/${id}/share`, { account: target, role });

beforeAll(async () => {
  s = await startServer();
  companyId = await company(s);
  owner = await account(s, { agentCompanyId: companyId });
  friend = await account(s);
  stranger = await account(s);
  companyAdmin = await account(s, { kind: 'company_admin', companyId });
  const roleId = (
    await s.db
      .insertInto('company_roles')
      .values({
        company_id: companyId,
        name: 'Tech',
        permissions: JSON.stringify(['station.view', 'station.edit']),
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  companyUser = await account(s, { kind: 'company_user', companyId, roleId });
  plant = await createPlant(s, owner, { contactName: 'Site Boss', contactPhone: '+34 1' });
});
afterAll(() => s.close());

describe('share', () => {
  it('the owner shares as visitor, lists, and sharing again changes the role', async () => {
    await s.db.updateTable('users').set({ nickname: 'Friendly' }).where('id', '=', friend.id).execute();
    const res = await share(owner, plant, friend.account.toUpperCase());
    // The answer says the share was made, nothing more about the account (no id, no nickname).
    expect(res.body).toEqual({
      code: ErrorCode.ok,
      msg: 'ok',
      data: { account: friend.account, role: 'visitor', sharedAt: expect.any(String) },
    });
    expect(JSON.stringify((await get(owner, `/api/v1/plant/${plant}/getShareUsers`)).body)).not.toContain('Friendly');
    expect((await get(owner, `/api/v1/plant/${plant}/getShareUsers`)).body.data).toEqual([
      expect.objectContaining({ userId: friend.id, role: 'visitor' }),
    ]);
    expect((await share(owner, plant, friend.account, 'manager')).body.data).toMatchObject({ role: 'manager' });
    expect((await get(owner, `/api/v1/plant/${plant}/getShareUsers`)).body.data).toEqual([
      expect.objectContaining({ userId: friend.id, role: 'manager' }),
    ]);
  });

  it('refuses: 701 oneself, 702 company accounts, 4 no such account (a disabled one alike), 4 bad role', async () => {
    expect((await share(owner, plant, owner.account)).body.code).toBe(ErrorCode.shareSelf);
    expect((await share(owner, plant, companyAdmin.account)).body.code).toBe(ErrorCode.shareCompanyUser);
    expect((await share(owner, plant, companyUser.account)).body.code).toBe(ErrorCode.shareCompanyUser);
    const missing = await share(owner, plant, 'nobody@example.com');
    expect(missing.body).toMatchObject(badInput('account'));
    expect(missing.body.msg).toContain('no such account');
    const disabled = await s.user({ enabled: false });
    const answer = (await share(owner, plant, disabled.account)).body;
    expect(answer).toEqual({ ...missing.body });
    expect((await share(owner, plant, stranger.account, 'owner')).body.code).toBe(ErrorCode.validation);
    const shared = await s.db.selectFrom('plant_shares').select('user_id').where('plant_id', '=', plant).execute();
    expect(shared.map((r) => r.user_id)).toEqual([friend.id]);
  });

  it('703 for a company plant, even for its company', async () => {
    const companyPlant = await createPlant(s, companyAdmin);
    expect((await share(companyAdmin, companyPlant, stranger.account)).body.code).toBe(ErrorCode.shareCompanyPlant);
  });

  it('only the owner shares: a manager or installer gets 2, a stranger 700', async () => {
    expect((await share(friend, plant, stranger.account)).body.code).toBe(ErrorCode.noPermission);
    expect((await get(friend, `/api/v1/plant/${plant}/getShareUsers`)).body.code).toBe(ErrorCode.noPermission);
    expect((await share(companyAdmin, plant, stranger.account)).body.code).toBe(ErrorCode.noPermission);
    expect((await share(stranger, plant, friend.account)).body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    expect((await get(stranger, `/api/v1/plant/${plant}/getShareUsers`)).body).toMatchObject({
      code: ErrorCode.plantMissing,
      data: null,
    });
  });
});

describe('what each role may do', () => {
  it('a manager operates (edit, gateway) but cannot delete, share or transfer', async () => {
    await share(owner, plant, friend.account, 'manager');
    expect((await post(friend, `/api/v1/plant/${plant}/info`, { alias: 'by manager' })).body.code).toBe(ErrorCode.ok);
    expect((await post(friend, `/api/v1/plant/${plant}/contacts`, { contactName: 'Site Boss' })).body.code).toBe(ErrorCode.ok);
    expect((await get(friend, `/api/v1/plant/${plant}`)).body.data).toMatchObject({
      role: 'manager',
      canEdit: true,
      canManage: false,
      contactName: 'Site Boss',
    });
    // The list row carries the same rights, so the list shows the same buttons.
    expect(await listRow(friend, plant)).toMatchObject({ role: 'manager', canEdit: true, canManage: false });
    expect(await listRow(owner, plant)).toMatchObject({ role: 'owner', canEdit: true, canManage: true });
    expect((await post(friend, `/api/v1/plant/${plant}/delete`)).body.code).toBe(ErrorCode.noPermission);
    expect(
      (
        await post(friend, `/api/v1/plant/${plant}/transfer?account=${encodeURIComponent(stranger.account)}`, {
          password: PASSWORD,
        })
      ).body.code,
    ).toBe(2);
  });

  it('a visitor sees but changes nothing (2) and sees no contacts', async () => {
    await share(owner, plant, friend.account, 'visitor');
    const detail = (await get(friend, `/api/v1/plant/${plant}`)).body.data;
    expect(detail).toMatchObject({ role: 'visitor', canEdit: false, canManage: false, contactName: null, contactPhone: null });
    expect(detail).toMatchObject({ owner: { id: owner.id, account: null } });
    expect(await listRow(friend, plant)).toMatchObject({ role: 'visitor', canEdit: false, canManage: false });
    for (const [url, body] of [
      [`/api/v1/plant/${plant}`, { alias: 'x' }],
      [`/api/v1/plant/${plant}/info`, { alias: 'x' }],
      [`/api/v1/plant/${plant}/income`, { price: 1 }],
      [`/api/v1/plant/${plant}/contacts`, { contactName: 'x' }],
      [`/api/v1/plant/${plant}/gateway`, { sn: 'ANY', key: 'ANY' }],
      [`/api/v1/plant/${plant}/delete`, undefined],
      [`/api/v1/plant/${plant}/share`, { account: stranger.account, role: 'visitor' }],
      [`/api/v1/plant/${plant}/transfer?account=${encodeURIComponent(stranger.account)}`, { password: PASSWORD }],
    ] as const) {
      expect((await post(friend, url, body)).body, url).toMatchObject({ code: ErrorCode.noPermission, data: null });
    }
    const alias = await s.db.selectFrom('plants').select('alias').where('id', '=', plant).executeTakeFirstOrThrow();
    expect(alias.alias).toBe('by manager');
  });

  it('the agent company sees and edits the owner’s plant with the owner’s account, but has no owner rights', async () => {
    const detail = (await get(companyAdmin, `/api/v1/plant/${plant}`)).body.data;
    expect(detail).toMatchObject({ role: 'company', canEdit: true, canManage: false, owner: { account: owner.account } });
    expect(await listRow(companyAdmin, plant)).toMatchObject({ role: 'company', canEdit: true, canManage: false });
    expect((await post(companyUser, `/api/v1/plant/${plant}/info`, { capacity: 11 })).body.code).toBe(ErrorCode.ok);
    expect((await post(companyAdmin, `/api/v1/plant/${plant}/delete`)).body.code).toBe(ErrorCode.noPermission);
    // A company user without station.delete is stopped by the permission guard.
    expect((await post(companyUser, `/api/v1/plant/${plant}/delete`)).body.code).toBe(ErrorCode.noPermission);
  });

  it('revoking a share takes effect on the sharee’s next request', async () => {
    expect((await get(friend, `/api/v1/plant/${plant}`)).body.code).toBe(ErrorCode.ok);
    expect((await post(owner, `/api/v1/plant/${plant}/cancelShare`, { userId: friend.id })).body.code).toBe(ErrorCode.ok);
    expect((await get(friend, `/api/v1/plant/${plant}`)).body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    expect((await get(friend, '/api/v1/plants')).body.data).toEqual({ total: 0, list: [] });
  });

  it('a sharee may end their own share, not someone else’s', async () => {
    await share(owner, plant, friend.account, 'visitor');
    await share(owner, plant, stranger.account, 'visitor');
    expect((await post(friend, `/api/v1/plant/${plant}/cancelShare`, { userId: stranger.id })).body.code).toBe(
      ErrorCode.noPermission,
    );
    expect((await post(friend, `/api/v1/plant/${plant}/cancelShare`, { userId: friend.id })).body.code).toBe(ErrorCode.ok);
    expect((await get(friend, `/api/v1/plant/${plant}`)).body.code).toBe(ErrorCode.plantMissing);
    expect((await get(stranger, `/api/v1/plant/${plant}`)).body.code).toBe(ErrorCode.ok);
    await post(owner, `/api/v1/plant/${plant}/cancelShare`, { userId: stranger.id });
  });
});

describe('account look-ups', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({ rateLimits: true });
  });
  afterAll(() => limited.close());

  it('shares and transfers look up at most 30 accounts per user in 10 minutes, counted together', async () => {
    const me = await account(limited);
    const other = await account(limited);
    const id = await createPlant(limited, me);
    const look = (who: Account, i: number) =>
      i % 2
        ? limited.call(who.token, 'POST', `/api/v1/plant/${id}/share`, { account: `probe${i}@example.com`, role: 'visitor' })
        : limited.call(who.token, 'POST', `/api/v1/plant/${id}/transfer?account=probe${i}%40example.com`, { password: PASSWORD });
    for (let i = 0; i < 30; i++) expect((await look(me, i)).body.code, `look-up ${i + 1}`).toBe(ErrorCode.validation);
    expect(await look(me, 30)).toEqual({
      status: 429,
      body: { code: ErrorCode.tooManyRequests, msg: 'Too many requests, please try again later', data: null },
    });
    expect((await look(me, 31)).status).toBe(429);
    // Another user is counted apart (their own plant: 700 here, but not throttled).
    expect((await look(other, 0)).status).toBe(200);
  });
});
