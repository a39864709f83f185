/** Plant transfer requests: the owner asks with their password, the recipient answers; only acceptance moves the plant. */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import { PASSWORD, startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, company, createPlant, device, gateway, plantDay } from '../../../test/kits/plants.ts';

let s: TestServer;
let owner: Account;
let stranger: Account;
let companyAdmin: Account;

const PORTAL = 'https://portal.example.com';
const post = (who: Account, url: string, body?: unknown) => s.call(who.token, 'POST', url, body);
const get = (who: Account, url: string) => s.call(who.token, 'GET', url);
const request = (who: Account, id: number, target: string, password = PASSWORD) =>
  post(who, `/api/v1/plant/${id}/transfer?account=${encodeURIComponent(target)}`, { password });
const act = (who: Account, id: number, what: 'accept' | 'decline' | 'cancel') => post(who, `/api/v1/plantTransfer/${id}/${what}`);
const ownerOf = async (id: number) =>
  s.db.selectFrom('plants').select(['owner_user_id', 'company_id']).where('id', '=', id).executeTakeFirstOrThrow();
const audit = (transferId: number) =>
  s.db
    .selectFrom('admin_audit')
    .select(['actor_user_id', 'company_id', 'action', 'after_values'])
    .where('entity', '=', 'plant_transfer')
    .where('entity_id', '=', String(transferId))
    .orderBy('id')
    .execute();
/** The mail's text with its quoted-printable soft breaks and escapes undone. */
const quotedPrintable = (raw: string) =>
  Buffer.from(
    raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    'latin1',
  ).toString('utf8');
const rowsOf = (plantId: number) => s.db.selectFrom('plant_transfers').selectAll().where('plant_id', '=', plantId).execute();

beforeAll(async () => {
  s = await startServer({ portalUrl: PORTAL });
  owner = await account(s);
  stranger = await account(s);
  companyAdmin = await account(s, { kind: 'company_admin', companyId: await company(s) });
});
afterAll(() => s.close());

describe('request', () => {
  it('asks with the password, mails both sides, lists it on both sides, moves nothing, and is audited', async () => {
    const taker = await account(s);
    await s.db.updateTable('users').set({ language: 'es' }).where('id', '=', taker.id).execute();
    const id = await createPlant(s, owner, { name: 'Offer plant' });
    const offered = s.smtp.waitFor(taker.account);
    const requested = s.smtp.waitFor(owner.account);
    const res = await request(owner, id, taker.account.toUpperCase());
    expect(res.body).toMatchObject({
      code: ErrorCode.ok,
      data: { plantId: id, plantName: 'Offer plant', fromAccount: owner.account, toAccount: taker.account, status: 'pending' },
    });
    const made = res.body.data as { id: number; createdAt: string; expiresAt: string };
    expect(Date.parse(made.expiresAt) - Date.parse(made.createdAt)).toBe(7 * 24 * 3600 * 1000);
    const offer = await offered;
    expect(offer.subject).toBe(`Sunfleet: ${owner.account} le ofrece la planta Offer plant`);
    expect(quotedPrintable(offer.raw)).toContain(`${PORTAL}/plants/transfers?id=${made.id}`);
    expect((await requested).subject).toBe('Sunfleet: transfer of Offer plant requested');
    expect(await ownerOf(id)).toEqual({ owner_user_id: owner.id, company_id: null });
    expect((await get(taker, `/api/v1/plant/${id}`)).body.code).toBe(ErrorCode.plantMissing);
    expect((await get(taker, '/api/v1/plantTransfers')).body.data).toEqual({ offered: [res.body.data], sent: [] });
    expect((await get(owner, '/api/v1/plantTransfers')).body.data).toMatchObject({ offered: [], sent: [{ id: made.id }] });
    expect(await audit(made.id)).toEqual([
      expect.objectContaining({ actor_user_id: owner.id, company_id: null, action: 'request' }),
    ]);
    await act(owner, made.id, 'cancel');
  });

  it('a wrong password answers 108 and writes nothing', async () => {
    const id = await createPlant(s, owner);
    const before = await s.db
      .selectFrom('admin_audit')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect((await request(owner, id, stranger.account, 'Wrong1234')).body).toMatchObject({
      code: ErrorCode.oldPasswordWrong,
      data: null,
    });
    expect(await rowsOf(id)).toEqual([]);
    expect(
      await s.db
        .selectFrom('admin_audit')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual(before);
    // No password at all is a validation error.
    expect((await post(owner, `/api/v1/plant/${id}/transfer?account=${encodeURIComponent(stranger.account)}`)).body.code).toBe(
      ErrorCode.validation,
    );
  });

  it('a plant with a pending request refuses another (704); once it lapses a new one opens', async () => {
    const id = await createPlant(s, owner);
    const first = (await request(owner, id, stranger.account)).body.data as { id: number };
    const other = await account(s);
    expect((await request(owner, id, other.account)).body).toMatchObject({ code: ErrorCode.transferPending, data: null });
    await s.db
      .updateTable('plant_transfers')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', first.id)
      .execute();
    expect((await request(owner, id, other.account)).body.code).toBe(ErrorCode.ok);
    expect((await rowsOf(id)).map((r) => r.status).sort()).toEqual(['expired', 'pending']);
  });

  it('refuses: 207 to oneself, 4 no such account, 2 for a non-owner, 700 for a stranger', async () => {
    const id = await createPlant(s, owner);
    expect((await request(owner, id, owner.account)).body.code).toBe(ErrorCode.already);
    const missing = (await request(owner, id, 'nobody@example.com')).body;
    expect(missing).toMatchObject(badInput('account'));
    expect(missing.msg).toContain('no such account');
    expect((await request(owner, id, (await s.user({ enabled: false })).account)).body).toEqual(missing);
    expect((await request(companyAdmin, id, stranger.account)).body.code).toBe(ErrorCode.plantMissing);
    expect((await request(stranger, id, stranger.account)).body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    expect(await rowsOf(id)).toEqual([]);
  });
});

describe('answers', () => {
  it('acceptance moves the plant with its devices and history, ends shares, mails the requester, is audited', async () => {
    const giver = await account(s);
    const taker = await account(s);
    const friend = await account(s);
    const id = await createPlant(s, giver, { name: 'Gift plant' });
    const gw = await gateway(s, id);
    const dev = await device(s, gw.id, id, { latest: { activePower: 100 } });
    await plantDay(s, id, '2026-01-01', 1234);
    await post(giver, `/api/v1/plant/${id}/share`, { account: friend.account, role: 'manager' });
    const t = (await request(giver, id, taker.account)).body.data as { id: number };
    const told = s.smtp.waitFor(giver.account);
    const res = await act(taker, t.id, 'accept');
    expect(res.body).toMatchObject({ code: ErrorCode.ok, data: { id: t.id, status: 'accepted' } });
    expect((await told).subject).toBe('Sunfleet: you transferred the plant Gift plant');
    expect(await ownerOf(id)).toEqual({ owner_user_id: taker.id, company_id: null });
    expect((await get(giver, `/api/v1/plant/${id}`)).body.code).toBe(ErrorCode.plantMissing);
    expect((await get(friend, `/api/v1/plant/${id}`)).body.code).toBe(ErrorCode.plantMissing);
    expect((await get(taker, `/api/v1/plant/${id}`)).body.data).toMatchObject({ role: 'owner', gateways: [{ sn: gw.sn }] });
    expect((await s.db.selectFrom('devices').select('plant_id').where('id', '=', dev).executeTakeFirstOrThrow()).plant_id).toBe(
      id,
    );
    expect(await s.db.selectFrom('plant_day').select('pv_wh').where('plant_id', '=', id).execute()).toEqual([{ pv_wh: 1234 }]);
    expect(await s.db.selectFrom('plant_shares').select('user_id').where('plant_id', '=', id).execute()).toEqual([]);
    expect((await audit(t.id)).map((r) => [r.actor_user_id, r.action])).toEqual([
      [giver.id, 'request'],
      [taker.id, 'accept'],
    ]);
    expect(JSON.parse((await audit(t.id))[1]!.after_values!)).toMatchObject({ plantId: id, status: 'accepted' });
    expect((await get(taker, '/api/v1/plantTransfers')).body.data).toEqual({ offered: [], sent: [] });
    // Answered once: a second answer is 705.
    expect((await act(taker, t.id, 'accept')).body).toMatchObject({ code: ErrorCode.transferClosed, data: null });
  });

  it('decline and cancel (by either side) leave the plant, are audited and mailed to the other side', async () => {
    const taker = await account(s);
    const id = await createPlant(s, owner, { name: 'Kept plant' });
    const cases: Array<[Account, 'decline' | 'cancel', Account, string]> = [
      [taker, 'decline', owner, `Sunfleet: ${taker.account} declined the plant Kept plant`],
      [owner, 'cancel', taker, 'Sunfleet: transfer of Kept plant withdrawn'],
      [taker, 'cancel', owner, 'Sunfleet: transfer of Kept plant withdrawn'],
    ];
    for (const [who, what, other, subject] of cases) {
      const t = (await request(owner, id, taker.account)).body.data as { id: number };
      const told = s.smtp.waitFor(other.account);
      expect((await act(who, t.id, what)).body).toMatchObject({
        code: ErrorCode.ok,
        data: { status: `${what}d`.replace('cancel', 'cancelle') },
      });
      expect((await told).subject).toBe(subject);
      expect((await audit(t.id)).map((r) => [r.actor_user_id, r.action])).toEqual([
        [owner.id, 'request'],
        [who.id, what],
      ]);
      expect((await act(taker, t.id, 'accept')).body.code).toBe(ErrorCode.transferClosed);
      expect(await ownerOf(id)).toEqual({ owner_user_id: owner.id, company_id: null });
    }
  });

  it('a lapsed request cannot be accepted and is listed no more', async () => {
    const taker = await account(s);
    const id = await createPlant(s, owner);
    const t = (await request(owner, id, taker.account)).body.data as { id: number };
    await s.db
      .updateTable('plant_transfers')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', t.id)
      .execute();
    expect((await get(taker, '/api/v1/plantTransfers')).body.data).toEqual({ offered: [], sent: [] });
    expect((await act(taker, t.id, 'accept')).body.code).toBe(ErrorCode.transferClosed);
    expect((await act(owner, t.id, 'cancel')).body.code).toBe(ErrorCode.transferClosed);
    expect(await ownerOf(id)).toEqual({ owner_user_id: owner.id, company_id: null });
    expect((await audit(t.id)).map((r) => r.action)).toEqual(['request']);
  });

  it('only the recipient accepts: another tenant gets 404, the requester 2, and nothing changes', async () => {
    const taker = await account(s);
    const id = await createPlant(s, owner);
    const t = (await request(owner, id, taker.account)).body.data as { id: number };
    for (const what of ['accept', 'decline', 'cancel'] as const) {
      expect((await act(stranger, t.id, what)).body, what).toMatchObject({ code: ErrorCode.notFound, data: null });
      expect((await act(companyAdmin, t.id, what)).body, what).toMatchObject({ code: ErrorCode.notFound, data: null });
    }
    expect((await act(owner, t.id, 'accept')).body.code).toBe(ErrorCode.noPermission);
    expect((await act(owner, t.id, 'decline')).body.code).toBe(ErrorCode.noPermission);
    expect((await act(stranger, 987654, 'accept')).body.code).toBe(ErrorCode.notFound);
    expect(await ownerOf(id)).toEqual({ owner_user_id: owner.id, company_id: null });
    expect((await rowsOf(id)).map((r) => r.status)).toEqual(['pending']);
    await act(owner, t.id, 'cancel');
  });

  it('a plant deleted before the answer cannot be accepted (705)', async () => {
    const taker = await account(s);
    const id = await createPlant(s, owner);
    const t = (await request(owner, id, taker.account)).body.data as { id: number };
    expect((await post(owner, `/api/v1/plant/${id}/delete`)).body.code).toBe(ErrorCode.ok);
    expect((await act(taker, t.id, 'accept')).body.code).toBe(ErrorCode.transferClosed);
    expect((await rowsOf(id)).map((r) => r.status)).toEqual(['pending']);
  });

  it('a request whose maker may no longer give the plant away cannot be accepted (705)', async () => {
    const taker = await account(s);
    const giver = await account(s);
    const id = await createPlant(s, giver);
    const t = (await request(giver, id, taker.account)).body.data as { id: number };
    await s.db.updateTable('users').set({ enabled: 0 }).where('id', '=', giver.id).execute();
    expect((await act(taker, t.id, 'accept')).body.code).toBe(ErrorCode.transferClosed);
    expect(await ownerOf(id)).toEqual({ owner_user_id: giver.id, company_id: null });
    expect((await rowsOf(id)).map((r) => r.status)).toEqual(['pending']);
  });

  it('a company plant offered by its company becomes the recipient’s own plant on acceptance', async () => {
    const id = await createPlant(s, companyAdmin);
    const t = (await request(companyAdmin, id, stranger.account)).body.data as { id: number };
    expect((await ownerOf(id)).owner_user_id).toBeNull();
    expect((await act(stranger, t.id, 'accept')).body.code).toBe(ErrorCode.ok);
    expect(await ownerOf(id)).toEqual({ owner_user_id: stranger.id, company_id: null });
    expect((await get(companyAdmin, `/api/v1/plant/${id}`)).body.code).toBe(ErrorCode.plantMissing);
    expect((await audit(t.id))[0]).toMatchObject({ action: 'request', company_id: expect.any(Number) });
  });
});
