/** Company details, name checks, theme colour and logo: codes, limits, other companies' ids, the audit record. */
import { companyGrantable, ErrorCode, errorText } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, PNG_1PX } from '../../../test/account.ts';
import { invalidInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { pngOf } from '../../../test/images.ts';
import { now } from '../../db/index.ts';

let s: TestServer;
let companyA: number;
let companyB: number;
let adminA: string;
let adminB: string;
let operator: string;
let userA: string;

async function company(name: string) {
  const t = now();
  return (
    await s.db
      .insertInto('companies')
      .values({ name, permissions: JSON.stringify(companyGrantable), created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}
const token = async (opts: Parameters<TestServer['user']>[0]) => (await s.login((await s.user(opts)).account)).access;
const audits = (entityId: number, entity = 'company') =>
  s.db
    .selectFrom('admin_audit')
    .selectAll()
    .where('entity', '=', entity as 'company')
    .where('entity_id', '=', String(entityId))
    .orderBy('id')
    .execute();

async function uploadLogo(access: string, bytes: Buffer, type = 'image/png', name = 'logo.png') {
  const body = multipart('file', name, type, bytes);
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/v1/company/uploadLogo',
    headers: { authorization: `Bearer ${access}`, 'content-type': body.contentType },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: { url: string } | null } };
}

beforeAll(async () => {
  s = await startServer();
  companyA = await company('Alpha Solar');
  companyB = await company('Beta Energy');
  adminA = await token({ kind: 'company_admin', companyId: companyA });
  adminB = await token({ kind: 'company_admin', companyId: companyB });
  operator = await token({ kind: 'sysadmin' });
  userA = await token({ kind: 'company_user', companyId: companyA });
});
afterAll(() => s.close());

describe('company info and edit', () => {
  it("shows the caller's company with the default theme colour", async () => {
    const res = await s.call(adminA, 'GET', '/api/v1/company/info');
    expect(res.body).toMatchObject({
      code: ErrorCode.ok,
      data: { id: companyA, name: 'Alpha Solar', themeColor: '#00cc00', logoUrl: null },
    });
    // Another company's id: as if it did not exist; an operator may name any company.
    expect((await s.call(adminA, 'GET', `/api/v1/company/info?id=${companyB}`)).body).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    expect((await s.call(operator, 'GET', `/api/v1/company/info?id=${companyB}`)).body.data).toMatchObject({
      name: 'Beta Energy',
    });
  });

  it('edits name and contact details, records before and after, and answers 203 for a taken name', async () => {
    const body = {
      name: 'Alpha Solar SL',
      contactName: 'Ana',
      email: 'Ana@Alpha.example',
      phone: '+34 600 000 000',
      address: 'Calle 1',
    };
    const res = await s.call(adminA, 'POST', `/api/v1/company/${companyA}/edit`, body);
    expect(res.body).toMatchObject({
      code: ErrorCode.ok,
      data: { name: 'Alpha Solar SL', contactName: 'Ana', email: 'ana@alpha.example' },
    });
    const rows = await audits(companyA);
    expect(rows.at(-1)).toMatchObject({ action: 'edit', company_id: companyA });
    expect(JSON.parse(rows.at(-1)!.before_values!)).toMatchObject({ name: 'Alpha Solar', contactName: null });
    expect(JSON.parse(rows.at(-1)!.after_values!)).toMatchObject({ name: 'Alpha Solar SL', contactName: 'Ana' });

    const count = (await audits(companyA)).length;
    // Names are unique without regard to case.
    const dup = await s.call(adminA, 'POST', `/api/v1/company/${companyA}/edit`, { name: 'beta energy' });
    expect(dup.body).toMatchObject({ code: ErrorCode.companyNameTaken, data: null });
    expect((await s.call(adminA, 'GET', '/api/v1/company/check?name=BETA%20ENERGY')).body.code).toBe(ErrorCode.companyNameTaken);
    expect((await s.call(adminA, 'GET', `/api/v1/company/check?name=Alpha%20Solar%20SL&id=${companyA}`)).body.code).toBe(
      ErrorCode.ok,
    );
    expect((await s.call(adminA, 'GET', '/api/v1/company/check?name=Gamma')).body.code).toBe(ErrorCode.ok);
    expect((await audits(companyA)).length).toBe(count);
  });

  it('name: 64 characters pass, 65 and forbidden characters are refused (4, nothing written)', async () => {
    expect((await s.call(adminA, 'POST', `/api/v1/company/${companyA}/edit`, { name: 'n'.repeat(65) })).body.code).toBe(
      ErrorCode.validation,
    );
    expect((await s.call(adminA, 'POST', `/api/v1/company/${companyA}/edit`, { name: 'Bad<Co>' })).body.code).toBe(
      ErrorCode.validation,
    );
    expect((await s.call(adminA, 'POST', `/api/v1/company/${companyA}/edit`, { name: 'Ok', email: 'nope' })).body.code).toBe(
      ErrorCode.validation,
    );
    expect(
      (await s.call(adminA, 'POST', `/api/v1/company/${companyA}/edit`, { name: 'Ok', address: 'a'.repeat(129) })).body.code,
    ).toBe(4);
    expect((await s.call(adminA, 'GET', '/api/v1/company/info')).body.data).toMatchObject({ name: 'Alpha Solar SL' });
    const exact = await s.call(adminA, 'POST', `/api/v1/company/${companyA}/edit`, { name: 'n'.repeat(64) });
    expect(exact.body.code).toBe(ErrorCode.ok);
    await s.call(adminA, 'POST', `/api/v1/company/${companyA}/edit`, { name: 'Alpha Solar SL' });
  });

  it("refuses another company's id on every company route (404) and writes nothing", async () => {
    const before = await s.db.selectFrom('companies').selectAll().where('id', '=', companyB).executeTakeFirstOrThrow();
    const calls: Array<[string, unknown]> = [
      [`/api/v1/company/${companyB}/edit`, { name: 'Taken over' }],
      [`/api/v1/company/${companyB}/themeColor`, { themeColor: '#123456' }],
      [`/api/v1/company/${companyB}/logo`, { logoUrl: null, iconUrl: null }],
    ];
    for (const [url, body] of calls)
      expect((await s.call(adminA, 'POST', url, body)).body, url).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect((await s.call(adminA, 'GET', `/api/v1/company/check?name=X&id=${companyB}`)).body.code).toBe(ErrorCode.notFound);
    expect(await s.db.selectFrom('companies').selectAll().where('id', '=', companyB).executeTakeFirstOrThrow()).toEqual(before);
    expect(await audits(companyB)).toEqual([]);
  });

  it('a company user without company.info.edit is refused (2); an owner has no company', async () => {
    expect((await s.call(userA, 'POST', `/api/v1/company/${companyA}/edit`, { name: 'Mine' })).body.code).toBe(
      ErrorCode.noPermission,
    );
    const owner = await token({});
    expect((await s.call(owner, 'GET', '/api/v1/company/info')).body.code).toBe(ErrorCode.noPermission);
  });
});

describe('adding a company', () => {
  it('only operators add companies; 203 for a taken name; recorded', async () => {
    expect((await s.call(adminA, 'POST', '/api/v1/company/add', { name: 'Gamma' })).body.code).toBe(ErrorCode.noPermission);
    const dup = await s.call(operator, 'POST', '/api/v1/company/add', { name: 'alpha solar sl' });
    expect(dup.body.code).toBe(ErrorCode.companyNameTaken);
    const made = await s.call(operator, 'POST', '/api/v1/company/add', { name: 'Gamma', themeColor: '#1677FF' });
    expect(made.body).toMatchObject({ code: ErrorCode.ok, data: { name: 'Gamma', themeColor: '#1677ff', users: 0, roles: 0 } });
    const id = (made.body.data as { id: number }).id;
    expect((await audits(id)).map((r) => r.action)).toEqual(['create']);
    expect((await s.call(operator, 'POST', '/api/v1/company/add', { name: 'Delta', themeColor: 'blue' })).body.code).toBe(
      ErrorCode.validation,
    );
  });
});

describe('theme colour', () => {
  it('sets #rrggbb (stored lower case), reaches the profile, and null goes back to #00cc00', async () => {
    const res = await s.call(adminA, 'POST', `/api/v1/company/${companyA}/themeColor`, { themeColor: '#AA3300' });
    expect(res.body).toMatchObject({ code: ErrorCode.ok, data: { themeColor: '#aa3300' } });
    const profile = await s.call(userA, 'GET', '/api/v1/user');
    expect(profile.body.data).toMatchObject({ company: { id: companyA, themeColor: '#aa3300' } });
    const rows = await audits(companyA);
    expect(rows.at(-1)!.action).toBe('theme');
    expect(JSON.parse(rows.at(-1)!.after_values!)).toMatchObject({ themeColor: '#aa3300' });
    const reset = await s.call(adminA, 'POST', `/api/v1/company/${companyA}/themeColor`, { themeColor: null });
    expect(reset.body.data).toMatchObject({ themeColor: '#00cc00' });
  });

  it.each(['#abc', 'aa3300', '#aa33001', '#gg0000', 'red'])('refuses %s (4)', async (themeColor) => {
    expect((await s.call(adminA, 'POST', `/api/v1/company/${companyA}/themeColor`, { themeColor })).body.code).toBe(
      ErrorCode.validation,
    );
  });
});

describe('logo', () => {
  it('stores a PNG under its digest, serves it immutable for a year, and puts it on the company', async () => {
    const first = await uploadLogo(adminA, PNG_1PX);
    expect(first.body.code).toBe(ErrorCode.ok);
    const url = first.body.data!.url;
    expect(url).toMatch(/^\/uploads\/logos\/[a-f0-9]{32}\.png$/);
    // The same image has the same name; another image another.
    expect((await uploadLogo(adminA, PNG_1PX)).body.data!.url).toBe(url);
    const other = Buffer.concat([PNG_1PX, Buffer.from([0])]);
    expect((await uploadLogo(adminA, other)).body.data!.url).not.toBe(url);
    const served = await s.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(PNG_1PX)).toBe(true);

    const set = await s.call(adminA, 'POST', `/api/v1/company/${companyA}/logo`, { logoUrl: url, iconUrl: url });
    expect(set.body).toMatchObject({ code: ErrorCode.ok, data: { logoUrl: url, iconUrl: url } });
    expect((await s.call(userA, 'GET', '/api/v1/user')).body.data).toMatchObject({ company: { logoUrl: url, iconUrl: url } });
    expect((await audits(companyA)).at(-1)!.action).toBe('logo');
  });

  it('takes a GIF and a JPEG by content', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    expect((await uploadLogo(adminA, gif, 'image/gif', 'a.gif')).body.data!.url).toMatch(/\.gif$/);
  });

  it.each([
    ['SVG named .png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
    ['HTML', Buffer.from('<html><script>alert(1)</script></html>')],
    ['empty', Buffer.alloc(0)],
  ])('refuses %s (4)', async (_what, bytes) => {
    expect((await uploadLogo(adminA, bytes)).body).toEqual(invalidInput('file must be a JPG, JPEG, GIF or PNG image'));
  });

  it('size: exactly 1 MB passes, one byte more is refused (413, code 4)', async () => {
    const exact = Buffer.concat([PNG_1PX, Buffer.alloc(1024 * 1024 - PNG_1PX.length)]);
    expect((await uploadLogo(adminA, exact)).body.code).toBe(ErrorCode.ok);
    const over = Buffer.concat([exact, Buffer.alloc(1)]);
    const res = await uploadLogo(adminA, over);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(ErrorCode.validation);
  });

  it('refuses an image of too many pixels (11): a small file declaring 14,000 × 14,000; an icon over 1024 on a side', async () => {
    const huge = Buffer.concat([pngOf(14_000, 14_000), Buffer.alloc(571 * 1024)]);
    expect((await uploadLogo(adminA, huge)).body).toEqual({
      code: ErrorCode.imageTooLarge,
      msg: errorText(ErrorCode.imageTooLarge),
      data: null,
    });
    const wide = await uploadLogo(adminA, pngOf(2000, 600));
    expect(wide.body.code).toBe(ErrorCode.ok);
    const url = wide.body.data!.url;
    const set = (body: { logoUrl: string | null; iconUrl: string | null }) =>
      s.call(adminA, 'POST', `/api/v1/company/${companyA}/logo`, body);
    expect((await set({ logoUrl: url, iconUrl: null })).body.code).toBe(ErrorCode.ok);
    expect((await set({ logoUrl: null, iconUrl: url })).body).toMatchObject({ code: ErrorCode.imageTooLarge, data: null });
    const icon = (await uploadLogo(adminA, pngOf(1024, 1024))).body.data!.url;
    expect((await set({ logoUrl: url, iconUrl: icon })).body).toMatchObject({
      code: ErrorCode.ok,
      data: { logoUrl: url, iconUrl: icon },
    });
  });

  it('refuses a URL that is not an uploaded logo (4) and another account without the permission (2)', async () => {
    const missing = '/uploads/logos/0123456789abcdef0123456789abcdef.png';
    expect(
      (await s.call(adminA, 'POST', `/api/v1/company/${companyA}/logo`, { logoUrl: missing, iconUrl: null })).body.code,
    ).toBe(4);
    expect(
      (await s.call(adminA, 'POST', `/api/v1/company/${companyA}/logo`, { logoUrl: '/uploads/avatars/x.png', iconUrl: null }))
        .body.code,
    ).toBe(4);
    expect((await uploadLogo(userA, PNG_1PX)).body.code).toBe(ErrorCode.noPermission);
    expect((await uploadLogo(adminB, PNG_1PX)).body.code).toBe(ErrorCode.ok);
  });
});
