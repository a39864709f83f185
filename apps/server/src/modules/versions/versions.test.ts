/**
 * System versions through the API: publish, edit, delete, detail, current, latest, timeline,
 * the number check; numbers unique and rising with publication time by compareVersions; only
 * the system operators write; every signed-in account reads.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { url } from '../../../test/kits/events.ts';
import { type Account, account, company } from '../../../test/kits/plants.ts';

let s: TestServer;
let operator: Account;
let staff: Account;
let owner: Account;

// biome-ignore lint/suspicious/noExplicitAny: the tests read fields of several reply shapes
type Reply = { code: number; msg: string; data: any };
const call = (who: Account, method: 'GET' | 'POST', path: string, payload?: unknown): Promise<Reply> =>
  s.call(who.token, method, path, payload).then((r) => r.body as Reply);
const publish = (number: string, extra: Record<string, unknown> = {}) =>
  call(operator, 'POST', '/api/v1/version', { number, contentZh: `版本 ${number}`, contentEn: `Release ${number}`, ...extra });
const count = async () =>
  Number(
    (
      await s.db
        .selectFrom('system_versions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  s = await startServer();
  operator = await account(s, { kind: 'sysadmin' });
  await s.db.updateTable('users').set({ nickname: 'Ops' }).where('id', '=', operator.id).execute();
  staff = await account(s, { kind: 'company_admin', companyId: await company(s) });
  owner = await account(s);
});
afterAll(() => s.close());

describe('system versions', () => {
  it('before the first: current and latest are null, the timeline empty', async () => {
    expect(await call(owner, 'GET', '/api/v1/version')).toMatchObject({ code: ErrorCode.ok, data: null });
    expect(await call(owner, 'GET', '/api/v1/version/latest')).toMatchObject({ code: ErrorCode.ok, data: null });
    expect(await call(owner, 'GET', '/api/v1/version/timeline')).toMatchObject({
      code: ErrorCode.ok,
      data: { total: 0, list: [] },
    });
  });

  it('publishes versions in rising order; a number not higher than the latest is 4, an equal one 207', async () => {
    const first = await publish('1.9');
    expect(first).toMatchObject({
      code: ErrorCode.ok,
      data: { number: '1.9', contentZh: '版本 1.9', contentEn: 'Release 1.9', publisher: 'Ops', publishedAt: expect.any(String) },
    });
    // 1.10 is higher than 1.9 (numeric segments compare as numbers).
    expect((await publish('1.10')).code).toBe(ErrorCode.ok);
    const lower = await publish('1.9.5');
    expect(lower).toMatchObject(badInput('number'));
    expect(lower.msg).toMatch(/higher than 1\.10$/);
    expect((await publish('1.8')).msg).toMatch(/higher than 1\.10$/); // names the latest, not the first it is below
    expect(await publish('1.010')).toMatchObject({ code: ErrorCode.already, data: null });
    expect(await publish('1.10')).toMatchObject({ code: ErrorCode.already });
    expect((await publish('V2')).code).toBe(ErrorCode.validation); // a letter segment ranks below a number
    expect((await publish('2.0-rc1')).code).toBe(ErrorCode.ok);
    expect((await publish('2.0')).code).toBe(ErrorCode.validation); // fewer segments is lower: 2.0 < 2.0-rc1
    expect((await publish('2.1')).code).toBe(ErrorCode.ok);
    expect(await count()).toBe(4);
  });

  it('checks a number: 207 when another version equals it, free for the one being edited', async () => {
    const latest = (await call(owner, 'GET', '/api/v1/version/latest')).data;
    expect(latest.number).toBe('2.1');
    expect(await call(operator, 'GET', url('/api/v1/version/check', { number: '2.01' }))).toMatchObject({
      code: ErrorCode.already,
    });
    expect(await call(operator, 'GET', url('/api/v1/version/check', { number: '2.1', id: latest.id }))).toMatchObject({
      code: ErrorCode.ok,
    });
    expect(await call(operator, 'GET', url('/api/v1/version/check', { number: '3.0' }))).toMatchObject({ code: ErrorCode.ok });
    expect(await call(operator, 'GET', url('/api/v1/version/check', { number: 'bad/number' }))).toMatchObject({
      code: ErrorCode.validation,
    });
  });

  it('reads: timeline and list highest first, current, latest, detail', async () => {
    const timeline = await call(owner, 'GET', url('/api/v1/version/timeline', { size: 3 }));
    expect(timeline.data.total).toBe(4);
    expect(timeline.data.list.map((v: { number: string }) => v.number)).toEqual(['2.1', '2.0-rc1', '1.10']);
    const list = await call(staff, 'GET', url('/api/v1/versions', { page: 2, size: 3 }));
    expect(list.data.list.map((v: { number: string }) => v.number)).toEqual(['1.9']);
    expect(await call(owner, 'GET', '/api/v1/version')).toMatchObject({ code: ErrorCode.ok, data: { number: '2.1' } });
    const id = timeline.data.list[1].id;
    expect(await call(operator, 'GET', `/api/v1/version/${id}`)).toMatchObject({
      code: ErrorCode.ok,
      data: { number: '2.0-rc1' },
    });
    expect(await call(operator, 'GET', '/api/v1/version/999999')).toMatchObject({ code: ErrorCode.notFound });
  });

  it('edits keep a version between its neighbours', async () => {
    const list = (await call(owner, 'GET', '/api/v1/versions')).data.list as {
      id: number;
      number: string;
      publishedAt: string;
    }[];
    const rc = list.find((v) => v.number === '2.0-rc1')!;
    const edited = await publish('2.0.1', { id: rc.id, contentEn: 'Release 2.0.1, fixed' });
    expect(edited).toMatchObject({
      code: ErrorCode.ok,
      data: { id: rc.id, number: '2.0.1', contentEn: 'Release 2.0.1, fixed', publishedAt: rc.publishedAt },
    });
    expect(await publish('2.2', { id: rc.id })).toMatchObject({ code: ErrorCode.validation }); // above 2.1, published after it
    expect((await publish('2.2', { id: rc.id })).msg).toMatch(/lower than 2\.1/);
    expect(await publish('1.8', { id: rc.id })).toMatchObject({ code: ErrorCode.validation }); // below 1.10, published before it
    expect(await publish('1.10', { id: rc.id })).toMatchObject({ code: ErrorCode.already });
    expect(await publish('3.0', { id: 999999 })).toMatchObject({ code: ErrorCode.notFound });
    expect((await call(operator, 'GET', `/api/v1/version/${rc.id}`)).data.number).toBe('2.0.1');
  });

  it('bad input is 4 and nothing is written', async () => {
    const before = await count();
    expect(await publish('3.0', { contentZh: '   ' })).toMatchObject({ code: ErrorCode.validation });
    expect(await publish('3.0', { contentEn: '' })).toMatchObject({ code: ErrorCode.validation });
    expect(await publish('')).toMatchObject({ code: ErrorCode.validation });
    expect(await publish('3.0 beta')).toMatchObject({ code: ErrorCode.validation });
    expect(await publish('x'.repeat(33))).toMatchObject({ code: ErrorCode.validation });
    expect(await publish('3.0', { publisher: 'me' })).toMatchObject({ code: ErrorCode.validation });
    expect(await count()).toBe(before);
  });

  it('only the system operators write; others are refused with 2 and nothing changes', async () => {
    const before = await count();
    expect(await call(staff, 'POST', '/api/v1/version', { number: '9.0', contentZh: 'x', contentEn: 'x' })).toMatchObject({
      code: ErrorCode.noPermission,
    });
    expect(await call(owner, 'POST', '/api/v1/version', { number: '9.0', contentZh: 'x', contentEn: 'x' })).toMatchObject({
      code: ErrorCode.noPermission,
    });
    const id = (await call(owner, 'GET', '/api/v1/version/latest')).data.id;
    expect(await call(staff, 'GET', `/api/v1/version/${id}/delete`)).toMatchObject({ code: ErrorCode.noPermission });
    expect(await call(staff, 'GET', `/api/v1/version/${id}`)).toMatchObject({ code: ErrorCode.noPermission, data: null });
    expect(await call(staff, 'GET', url('/api/v1/version/check', { number: '9.0' }))).toMatchObject({
      code: ErrorCode.noPermission,
    });
    expect(await count()).toBe(before);
  });

  it('deletes a version; the next latest is the one below', async () => {
    const latest = (await call(owner, 'GET', '/api/v1/version/latest')).data;
    expect(await call(operator, 'GET', `/api/v1/version/${latest.id}/delete`)).toMatchObject({ code: ErrorCode.ok, data: null });
    expect(await call(operator, 'GET', `/api/v1/version/${latest.id}/delete`)).toMatchObject({ code: ErrorCode.notFound });
    expect((await call(owner, 'GET', '/api/v1/version')).data.number).toBe('2.0.1');
    // With 2.1 gone, 2.0.5 is higher than the latest again.
    expect((await publish('2.0.5')).code).toBe(ErrorCode.ok);
  });
});
