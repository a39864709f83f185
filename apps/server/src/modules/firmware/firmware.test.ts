import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { companyGrantable, type Endpoint, ErrorCode, firmwareApi } from '@sunfleet/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { multipartBody } from '../../../test/kits/reports.ts';
import { now } from '../../db/index.ts';
import { firmwareBlobPath, firmwareDir, loadFirmwareSigner, verifyFirmwareSignature } from '../../firmware/signing.ts';
import { registerFirmwareUseCheck } from './in-use.ts';

const MAX = 1.5 * 1024 * 1024;

let s: TestServer;
let admin: string;
let companyAdmin: string;
let owner: string;
let inverterProduct: number;
let otherInverterProduct: number;
let gatewayProduct: number;

type Fw = firmwareApi.Firmware;

async function upload(
  token: string,
  url: string,
  fields: Record<string, string>,
  file?: { bytes: Buffer; name: string } | null,
): Promise<{ status: number; body: { code: number; msg: string; data: Fw | null } }> {
  const body = multipartBody(fields, file ?? undefined);
  const res = await s.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.json() };
}
const inverterUpload = (fields: Record<string, string>, file?: { bytes: Buffer; name: string } | null, token = admin) =>
  upload(token, '/api/v1/firmware/save', fields, file);
const gatewayUpload = (fields: Record<string, string>, file?: { bytes: Buffer; name: string } | null, token = admin) =>
  upload(token, '/api/v1/firmware/gateway/add', fields, file);

/** Every file under the data folder's firmware store (temporary ones included). */
const storedFiles = (dir = firmwareDir(s.config.dataDir)): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? storedFiles(path.join(dir, e.name)) : [e.name]))
    : [];
const rowCount = async () =>
  Number(
    (
      await s.db
        .selectFrom('firmware')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function product(type: 'gateway' | 'inverter', name: string) {
  const t = now();
  return (
    await s.db
      .insertInto('products')
      .values({
        type,
        name,
        epn: `EPN-${name}`,
        brand: 'Sunfleet',
        inverter_type_id: null,
        hardware_versions: '["H1"]',
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

beforeAll(async () => {
  s = await startServer();
  admin = (await s.login((await s.user({ kind: 'sysadmin' })).account)).access;
  const t = now();
  const company = await s.db
    .insertInto('companies')
    .values({ name: 'Installer Co', permissions: JSON.stringify(companyGrantable), created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  companyAdmin = (await s.login((await s.user({ kind: 'company_admin', companyId: company.id })).account)).access;
  owner = (await s.login((await s.user()).account)).access;
  inverterProduct = await product('inverter', 'HY-5K');
  otherInverterProduct = await product('inverter', 'HY-8K');
  gatewayProduct = await product('gateway', 'GW-4G');
});
afterAll(() => s.close());

beforeEach(async () => {
  await s.db.deleteFrom('firmware').execute();
  fs.rmSync(firmwareDir(s.config.dataDir), { recursive: true, force: true });
});

const image = (size = 4096) => randomBytes(size);

describe('firmware upload', () => {
  it('stores an inverter image: its row, its bytes under their SHA-256, a signature the public key verifies', async () => {
    const bytes = image(10_000);
    const res = await inverterUpload(
      { productId: String(inverterProduct), version: 'V1_0', hardwareVersion: 'H1', upgradeMode: 'ISP', changeLog: 'First' },
      { bytes, name: 'HY5K-V1_0.bin' },
    );
    expect(res.body.code).toBe(ErrorCode.ok);
    const fw = res.body.data!;
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(fw).toMatchObject({
      type: 'inverter',
      productId: inverterProduct,
      productName: 'HY-5K',
      epn: 'EPN-HY-5K',
      brand: 'Sunfleet',
      hardwareVersion: 'H1',
      upgradeMode: 'ISP',
      fileName: 'HY5K-V1_0.bin',
      version: 'V1_0',
      size: 10_000,
      sha256: sha,
      changeLog: 'First',
      enabled: true,
    });
    expect(fs.readFileSync(firmwareBlobPath(s.config.dataDir, sha)).equals(bytes)).toBe(true);
    expect(storedFiles()).toEqual([`${sha}.bin`]);
    const publicKey = loadFirmwareSigner(s.config.dataDir).publicKey;
    expect(verifyFirmwareSignature(publicKey, sha, fw.signature)).toBe(true);
    const other = createHash('sha256').update('other bytes').digest('hex');
    expect(verifyFirmwareSignature(publicKey, other, fw.signature)).toBe(false);
  });

  it('accepts exactly 1.5 MiB (1,572,864 bytes) and refuses one byte more with 4, storing nothing', async () => {
    const ok = await inverterUpload({ productId: String(inverterProduct), version: '1' }, { bytes: image(MAX), name: 'max.bin' });
    expect(ok.body).toMatchObject({ code: ErrorCode.ok, data: { size: 1_572_864 } });
    await s.db.deleteFrom('firmware').execute();
    fs.rmSync(firmwareDir(s.config.dataDir), { recursive: true, force: true });
    const over = await inverterUpload(
      { productId: String(inverterProduct), version: '2' },
      { bytes: image(MAX + 1), name: 'over.bin' },
    );
    expect(over.body).toMatchObject(badInput('file'));
    expect(over.body.msg).toMatch(/larger than 1572864 bytes/);
    expect(await rowCount()).toBe(0);
    expect(storedFiles()).toEqual([]);
  });

  it('refuses a bad file or field with 4 and stores nothing', async () => {
    const p = String(inverterProduct);
    const cases: Array<[Record<string, string>, { bytes: Buffer; name: string } | null, RegExp]> = [
      [{ productId: p, version: '1' }, { bytes: image(), name: 'fw.zip' }, /\.bin or \.hex/],
      [{ productId: p, version: '1' }, { bytes: image(), name: 'fw 1.bin' }, /letters, digits/],
      [{ productId: p, version: '1' }, { bytes: image(), name: `${'a'.repeat(37)}.bin` }, /at most 40/],
      [{ productId: p, version: '1' }, { bytes: Buffer.alloc(0), name: 'empty.bin' }, /empty/],
      [{ productId: p, version: '1.0' }, { bytes: image(), name: 'dots.bin' }, /version/],
      [{ productId: p, version: '' }, { bytes: image(), name: 'nov.bin' }, /version/],
      [{ productId: p, version: 'a'.repeat(41) }, { bytes: image(), name: 'long.bin' }, /version/],
      [{ productId: p, version: '1' }, null, /file: required/],
      [{ version: '1' }, { bytes: image(), name: 'nop.bin' }, /productId/],
      [{ productId: String(gatewayProduct), version: '1' }, { bytes: image(), name: 'gwp.bin' }, /no such inverter product/],
      [{ productId: p, version: '1', upgradeMode: 'OTA' }, { bytes: image(), name: 'mode.bin' }, /IAP or ISP/],
    ];
    for (const [fields, file, msg] of cases) {
      const res = await inverterUpload(fields, file);
      expect(res.body.code, JSON.stringify(fields) + file?.name).toBe(ErrorCode.validation);
      expect(res.body.msg).toMatch(msg);
    }
    expect(await rowCount()).toBe(0);
    expect(storedFiles()).toEqual([]);
    // 40 characters is allowed, and .hex too.
    const forty = await inverterUpload({ productId: p, version: '1' }, { bytes: image(), name: `${'a'.repeat(36)}.hex` });
    expect(forty.body.code).toBe(ErrorCode.ok);
  });

  it('4000 for a file name or a version already there, 4001 for a lower inverter version; nothing stored', async () => {
    const p = String(inverterProduct);
    expect((await inverterUpload({ productId: p, version: 'V1_9' }, { bytes: image(), name: 'a.bin' })).body.code).toBe(
      ErrorCode.ok,
    );
    const before = storedFiles();
    const sameName = await inverterUpload({ productId: p, version: 'V2_0' }, { bytes: image(), name: 'a.bin' });
    expect(sameName.body).toMatchObject({ code: ErrorCode.firmwareNameTaken, data: null });
    const sameVersion = await inverterUpload({ productId: p, version: 'V1_9' }, { bytes: image(), name: 'b.bin' });
    expect(sameVersion.body.code).toBe(ErrorCode.firmwareNameTaken);
    const lower = await inverterUpload({ productId: p, version: 'V1_8' }, { bytes: image(), name: 'c.bin' });
    expect(lower.body.code).toBe(ErrorCode.firmwareLatest);
    expect(await rowCount()).toBe(1);
    expect(storedFiles()).toEqual(before);
    // Numeric segments compare as numbers: 1.10 is higher than 1.9 (a text order would refuse it).
    expect((await inverterUpload({ productId: p, version: 'V1_10' }, { bytes: image(), name: 'd.bin' })).body.code).toBe(
      ErrorCode.ok,
    );
    // Another product has its own versions.
    const other = await inverterUpload(
      { productId: String(otherInverterProduct), version: 'V1_0' },
      { bytes: image(), name: 'e.bin' },
    );
    expect(other.body.code).toBe(ErrorCode.ok);
  });

  it('4002 for a gateway version not higher than the latest', async () => {
    const g = String(gatewayProduct);
    expect((await gatewayUpload({ productId: g, version: '2_1' }, { bytes: image(), name: 'gw-2_1.bin' })).body.code).toBe(
      ErrorCode.ok,
    );
    const lower = await gatewayUpload({ productId: g, version: '2_0' }, { bytes: image(), name: 'gw-2_0.bin' });
    expect(lower.body).toMatchObject({ code: ErrorCode.softwareLatest, data: null });
    expect(await rowCount()).toBe(1);
    const inverterProductOnGateway = await gatewayUpload(
      { productId: String(inverterProduct), version: '9' },
      { bytes: image(), name: 'x.bin' },
    );
    expect(inverterProductOnGateway.body.code).toBe(ErrorCode.validation);
  });

  it('the check calls answer the same codes before anything is sent', async () => {
    const p = inverterProduct;
    await inverterUpload({ productId: String(p), version: '3' }, { bytes: image(), name: 'three.bin' });
    const check = async (q: string, url = '/api/v1/firmware/check') => (await s.call(admin, 'GET', `${url}?${q}`)).body.code;
    expect(await check('fileName=three.bin')).toBe(4000);
    expect(await check('fileName=four.bin')).toBe(0);
    expect(await check(`productId=${p}&version=3`)).toBe(4000);
    expect(await check(`productId=${p}&version=2`)).toBe(4001);
    expect(await check(`productId=${p}&version=4`)).toBe(0);
    await gatewayUpload({ productId: String(gatewayProduct), version: '5' }, { bytes: image(), name: 'g5.bin' });
    expect(await check(`productId=${gatewayProduct}&version=4`, '/api/v1/firmware/gateway/check')).toBe(4002);
  });

  it('the same bytes uploaded twice are one file', async () => {
    const bytes = image();
    await inverterUpload({ productId: String(inverterProduct), version: '1' }, { bytes, name: 'one.bin' });
    await inverterUpload({ productId: String(otherInverterProduct), version: '1' }, { bytes, name: 'two.bin' });
    expect(await rowCount()).toBe(2);
    expect(storedFiles()).toHaveLength(1);
  });
});

describe('firmware lists, detail, edit, enable', () => {
  let ids: number[] = [];
  beforeEach(async () => {
    ids = [];
    for (const [v, name] of [
      ['1', 'inv-1.bin'],
      ['2', 'inv-2.bin'],
      ['10', 'inv-10.bin'],
    ] as const) {
      ids.push(
        (await inverterUpload({ productId: String(inverterProduct), version: v }, { bytes: image(), name })).body.data!.id,
      );
    }
    await gatewayUpload({ productId: String(gatewayProduct), version: '7' }, { bytes: image(), name: 'gw-7.bin' });
  });

  it('pages each type, newest first, with filters', async () => {
    const page = await s.call(admin, 'GET', '/api/v1/firmware/page?page=1&size=2');
    expect(page.body.data).toMatchObject({ total: 3, list: [{ fileName: 'inv-10.bin' }, { fileName: 'inv-2.bin' }] });
    const gw = await s.call(admin, 'GET', '/api/v1/firmware/gateway/page');
    expect(gw.body.data).toMatchObject({ total: 1, list: [{ fileName: 'gw-7.bin', type: 'gateway' }] });
    const byVersion = await s.call(admin, 'GET', '/api/v1/firmware/page?version=1');
    expect((byVersion.body.data as { list: Fw[] }).list.map((f) => f.version).sort()).toEqual(['1', '10']);
    expect((await s.call(admin, 'GET', '/api/v1/firmware/page?productName=hy-5')).body.data).toMatchObject({ total: 3 });
    expect((await s.call(admin, 'GET', '/api/v1/firmware/page?productName=%25')).body.data).toMatchObject({ total: 0 });
  });

  it('details an image of its own type only', async () => {
    expect((await s.call(admin, 'GET', `/api/v1/firmware/inverter/${ids[0]}`)).body.data).toMatchObject({
      id: ids[0],
      version: '1',
    });
    expect((await s.call(admin, 'GET', `/api/v1/firmware/gateway/${ids[0]}`)).body).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
  });

  it('edits the change log: an inverter image through save with its id, a gateway image through its own call', async () => {
    const saved = await inverterUpload({ id: String(ids[0]), changeLog: 'Fixes MPPT', compatibleSoftware: 'S2' });
    expect(saved.body.data).toMatchObject({ id: ids[0], changeLog: 'Fixes MPPT', compatibleSoftware: 'S2', version: '1' });
    const withFile = await inverterUpload({ id: String(ids[0]) }, { bytes: image(), name: 'no.bin' });
    expect(withFile.body.code).toBe(ErrorCode.validation);
    expect(storedFiles()).toHaveLength(4);
    const gw = (await s.call(admin, 'GET', '/api/v1/firmware/gateway/page')).body.data as { list: Fw[] };
    const edited = await s.call(admin, 'POST', `/api/v1/firmware/gateway/${gw.list[0]!.id}`, {
      changeLog: 'LTE fix',
      upgradeMode: 'ISP',
    });
    expect(edited.body.data).toMatchObject({ changeLog: 'LTE fix', upgradeMode: 'ISP' });
    expect((await s.call(admin, 'POST', `/api/v1/firmware/gateway/${ids[0]}`, { changeLog: 'x' })).body.code).toBe(
      ErrorCode.notFound,
    );
  });

  it('disables and enables; an account that only upgrades sees enabled versions, highest first', async () => {
    const off = await s.call(admin, 'GET', `/api/v1/firmware/${ids[2]}/changeEnable?enable=0`);
    expect(off.body.data).toMatchObject({ enabled: false });
    const all = await s.call(admin, 'GET', `/api/v1/firmware/versions?type=inverter&productId=${inverterProduct}`);
    expect(all.body.data).toMatchObject({
      total: 3,
      infos: [{ version: '10', enabled: false }, { version: '2' }, { version: '1' }],
    });
    const forOwner = await s.call(owner, 'GET', `/api/v1/firmware/versions?type=inverter&productId=${inverterProduct}`);
    expect(forOwner.body.data).toMatchObject({ total: 2, infos: [{ version: '2' }, { version: '1' }] });
    await s.call(admin, 'GET', `/api/v1/firmware/${ids[2]}/changeEnable?enable=1`);
    const paged = await s.call(owner, 'GET', `/api/v1/firmware/versions?type=inverter&productName=HY-5K&page=1&size=1`);
    expect(paged.body.data).toMatchObject({ total: 3, infos: [{ version: '10' }] });
  });
});

describe('firmware delete', () => {
  it('deletes an image and its file; bytes another image has stay', async () => {
    const bytes = image();
    const a = (await inverterUpload({ productId: String(inverterProduct), version: '1' }, { bytes, name: 'a.bin' })).body.data!;
    const b = (await inverterUpload({ productId: String(otherInverterProduct), version: '1' }, { bytes, name: 'b.bin' })).body
      .data!;
    expect((await s.call(admin, 'GET', `/api/v1/firmware/${a.id}/delete`)).body.code).toBe(ErrorCode.ok);
    expect(storedFiles()).toEqual([`${a.sha256}.bin`]);
    expect((await s.call(admin, 'GET', `/api/v1/firmware/${b.id}/delete`)).body.code).toBe(ErrorCode.ok);
    expect(storedFiles()).toEqual([]);
    expect(await rowCount()).toBe(0);
    expect((await s.call(admin, 'GET', `/api/v1/firmware/${b.id}/delete`)).body.code).toBe(ErrorCode.notFound);
  });

  it("refuses (4003) an image a running upgrade rollout sends: the server registers the rollouts' check", async () => {
    const a = (await inverterUpload({ productId: String(inverterProduct), version: '1' }, { bytes: image(), name: 'a.bin' })).body
      .data!;
    const t = Date.now();
    const rollout = {
      id: `rollout-${a.id}`,
      firmware_id: a.id,
      device_kind: 'inverter' as const,
      state: 'running' as const,
      canary_size: 1,
      wave_size: 1,
      failure_threshold: 10,
      waves: 1,
      requested_by: 1,
      created_at: t,
      updated_at: t,
    };
    await s.db.insertInto('upgrade_rollouts').values(rollout).execute();
    expect((await s.call(admin, 'GET', `/api/v1/firmware/${a.id}/delete`)).body.code).toBe(ErrorCode.firmwareInUse);
    await s.db.updateTable('upgrade_rollouts').set({ state: 'completed', finished_at: t }).where('id', '=', rollout.id).execute();
    expect((await s.call(admin, 'GET', `/api/v1/firmware/${a.id}/delete`)).body.code).toBe(ErrorCode.ok);
  });

  it('refuses (4003) while a registered use check says an upgrade uses the image, alone or in a batch', async () => {
    const a = (await inverterUpload({ productId: String(inverterProduct), version: '1' }, { bytes: image(), name: 'a.bin' })).body
      .data!;
    const b = (await inverterUpload({ productId: String(inverterProduct), version: '2' }, { bytes: image(), name: 'b.bin' })).body
      .data!;
    const asked: number[] = [];
    const unregister = registerFirmwareUseCheck(async (db, id) => {
      asked.push(id);
      // Reads through the store it is given (the deleting transaction).
      const row = await db.selectFrom('firmware').select('file_name').where('id', '=', id).executeTakeFirst();
      return row?.file_name === 'b.bin';
    });
    try {
      const one = await s.call(admin, 'GET', `/api/v1/firmware/${b.id}/delete`);
      expect(one.body).toMatchObject({ code: ErrorCode.firmwareInUse, data: null });
      expect(one.body.msg).toMatch(/b\.bin/);
      const batch = await s.call(admin, 'GET', `/api/v1/firmware/batchDelete?ids=${a.id}&ids=${b.id}`);
      expect(batch.body.code).toBe(ErrorCode.firmwareInUse);
      expect(await rowCount()).toBe(2);
      expect(storedFiles()).toHaveLength(2);
      expect(asked).toContain(b.id);
    } finally {
      unregister();
    }
    const batch = await s.call(admin, 'GET', `/api/v1/firmware/batchDelete?ids=${a.id}&ids=${b.id}`);
    expect(batch.body).toMatchObject({ code: ErrorCode.ok, data: { deleted: 2 } });
    expect(storedFiles()).toEqual([]);
  });

  it('a batch naming an unknown id deletes nothing', async () => {
    const a = (await inverterUpload({ productId: String(inverterProduct), version: '1' }, { bytes: image(), name: 'a.bin' })).body
      .data!;
    expect((await s.call(admin, 'GET', `/api/v1/firmware/batchDelete?ids=${a.id}&ids=999999`)).body.code).toBe(
      ErrorCode.notFound,
    );
    expect(await rowCount()).toBe(1);
  });
});

describe('firmware permissions', () => {
  const endpoints = (Object.values(firmwareApi) as unknown[]).filter(
    (e): e is Endpoint => typeof e === 'object' && e !== null && 'path' in e && 'method' in e,
  );
  const url = (e: { path: string }) =>
    `${e.path.replace(/:id\b/, '1')}${e.path.endsWith('batchDelete') ? '?ids=1' : e.path.endsWith('changeEnable') ? '?enable=1' : ''}`;

  it('every call is refused (2) to a company administrator holding every company permission, and to an owner', async () => {
    expect(endpoints.length).toBe(29);
    for (const e of endpoints) {
      for (const token of [companyAdmin, owner]) {
        // Whoever may upgrade a device (owners, installers) lists versions: checked below.
        if (e.path === '/api/v1/firmware/versions') continue;
        const res = await s.app.inject({
          method: e.method as 'GET',
          url: url(e),
          headers: { authorization: `Bearer ${token}` },
          ...(e.method === 'POST' ? { payload: {} } : {}),
        });
        expect(res.json().code, `${e.method} ${e.path}`).toBe(ErrorCode.noPermission);
      }
    }
    expect((await s.call(companyAdmin, 'GET', '/api/v1/firmware/versions?type=gateway')).body.code).toBe(ErrorCode.ok);
    const reader = (await s.login((await s.user({ kind: 'company_user' })).account)).access;
    expect((await s.call(reader, 'GET', '/api/v1/firmware/versions?type=gateway')).body.code).toBe(ErrorCode.noPermission);
  });

  it('the operator passes the permission check of every call', async () => {
    for (const e of endpoints) {
      const res = await s.app.inject({
        method: e.method as 'GET',
        url: url(e),
        headers: { authorization: `Bearer ${admin}` },
        ...(e.method === 'POST' ? { payload: {} } : {}),
      });
      expect(res.json().code, `${e.method} ${e.path}`).not.toBe(ErrorCode.noPermission);
    }
  });

  it('changing an image needs the edit permission of its type', async () => {
    const fw = (await inverterUpload({ productId: String(inverterProduct), version: '1' }, { bytes: image(), name: 'a.bin' }))
      .body.data!;
    // No account kind holds one platform edit permission without the other: a stand-in caller does.
    const { setEnabled } = await import('./firmware.service.ts');
    const gatewayEditor = { user: { id: 1 }, grants: new Set(['firmware.gateway.edit']) } as never;
    await expect(setEnabled(s.db, gatewayEditor, fw.id, false)).rejects.toMatchObject({ code: ErrorCode.noPermission });
    expect((await s.call(admin, 'GET', `/api/v1/firmware/inverter/${fw.id}`)).body.data).toMatchObject({ enabled: true });
  });
});
