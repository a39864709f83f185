import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { multipartBody } from '../../../test/kits/reports.ts';
import { now } from '../../db/index.ts';

let s: TestServer;
let admin: string;

type Type = { id: number; name: string; position: number; products: number };
type Product = {
  id: number;
  name: string;
  type: string;
  hardwareVersions: string[];
  inverterTypeId: number | null;
  firmware: number;
};

const types = async () => (await s.call(admin, 'GET', '/api/v1/firmware/inverterTypes')).body.data as Type[];
const addType = async (name: string) => (await s.call(admin, 'POST', '/api/v1/inverterType/add', { name })).body;

beforeAll(async () => {
  s = await startServer();
  admin = (await s.login((await s.user({ kind: 'sysadmin' })).account)).access;
});
afterAll(() => s.close());

describe('inverter types', () => {
  it('adds at the end, refuses a taken name (4006) in add, rename and check', async () => {
    for (const name of ['Hybrid', 'String', 'Micro']) expect((await addType(name)).code).toBe(ErrorCode.ok);
    expect((await types()).map((t) => [t.name, t.position])).toEqual([
      ['Hybrid', 0],
      ['String', 1],
      ['Micro', 2],
    ]);
    expect((await addType('Hybrid')).code).toBe(ErrorCode.inverterTypeExists);
    expect((await addType('Hybrid ')).code).toBe(ErrorCode.inverterTypeExists);
    const [hybrid, string] = await types();
    expect((await s.call(admin, 'POST', `/api/v1/inverterType/${string!.id}/edit`, { name: 'Hybrid' })).body.code).toBe(
      ErrorCode.inverterTypeExists,
    );
    expect((await s.call(admin, 'GET', `/api/v1/firmware/inverterType/check?name=Hybrid`)).body.code).toBe(
      ErrorCode.inverterTypeExists,
    );
    expect((await s.call(admin, 'GET', `/api/v1/firmware/inverterType/check?name=Hybrid&id=${hybrid!.id}`)).body.code).toBe(
      ErrorCode.ok,
    );
    const renamed = await s.call(admin, 'POST', `/api/v1/inverterType/${string!.id}/edit`, { name: 'String inverter' });
    expect(renamed.body.data).toMatchObject({ id: string!.id, name: 'String inverter' });
    expect((await s.call(admin, 'POST', '/api/v1/inverterType/999999/edit', { name: 'X' })).body.code).toBe(ErrorCode.notFound);
    expect((await s.call(admin, 'POST', '/api/v1/inverterType/add', { name: '' })).body.code).toBe(ErrorCode.validation);
  });

  it('moves a type up or down; at an end it stays', async () => {
    const [hybrid, , micro] = await types();
    const moved = await s.call(admin, 'POST', `/api/v1/inverterType/${micro!.id}/move`, { direction: 'up' });
    expect((moved.body.data as Type[]).map((t) => t.name)).toEqual(['Hybrid', 'Micro', 'String inverter']);
    await s.call(admin, 'POST', `/api/v1/inverterType/${hybrid!.id}/move`, { direction: 'up' });
    await s.call(admin, 'POST', `/api/v1/inverterType/${hybrid!.id}/move`, { direction: 'down' });
    expect((await types()).map((t) => [t.name, t.position])).toEqual([
      ['Micro', 0],
      ['Hybrid', 1],
      ['String inverter', 2],
    ]);
    expect((await s.call(admin, 'POST', `/api/v1/inverterType/${hybrid!.id}/move`, { direction: 'left' })).body.code).toBe(
      ErrorCode.validation,
    );
  });
});

describe('products', () => {
  let hybridId: number;
  let microId: number;
  beforeAll(async () => {
    const all = await types();
    hybridId = all.find((t) => t.name === 'Hybrid')!.id;
    microId = all.find((t) => t.name === 'Micro')!.id;
  });

  it('adds inverter products under a type; names unique within the type (4005)', async () => {
    const made = await s.call(admin, 'POST', '/api/v1/inverter/product', {
      name: 'HY-5K',
      epn: 'EPN5',
      brand: 'Sunfleet',
      inverterTypeId: hybridId,
      hardwareVersions: ['H1', 'H10', 'H2'],
    });
    expect(made.body.data).toMatchObject({
      type: 'inverter',
      name: 'HY-5K',
      inverterTypeId: hybridId,
      inverterTypeName: 'Hybrid',
      hardwareVersions: ['H10', 'H2', 'H1'],
      firmware: 0,
    });
    expect((await s.call(admin, 'POST', '/api/v1/inverter/product', { name: 'HY-5K', inverterTypeId: microId })).body.code).toBe(
      4005,
    );
    expect((await s.call(admin, 'GET', '/api/v1/inverter/product/check?name=HY-5K')).body.code).toBe(ErrorCode.productExists);
    expect((await s.call(admin, 'POST', '/api/v1/inverter/product', { name: 'M-1', inverterTypeId: 999999 })).body.code).toBe(
      ErrorCode.validation,
    );
    expect((await s.call(admin, 'POST', '/api/v1/inverter/product', { name: 'MI-600', inverterTypeId: microId })).body.code).toBe(
      0,
    );
    // A gateway product may share an inverter product's name: names are unique within a type.
    const gw = await s.call(admin, 'POST', '/api/v1/product/', { name: 'HY-5K', hardwareVersions: ['G1'] });
    expect(gw.body.data).toMatchObject({ type: 'gateway', name: 'HY-5K', inverterTypeId: null });
    const gwEdit = await s.call(admin, 'POST', '/api/v1/product/', {
      id: (gw.body.data as Product).id,
      name: 'GW-4G',
      brand: 'B',
    });
    expect(gwEdit.body.data).toMatchObject({ name: 'GW-4G', brand: 'B' });
  });

  it('lists, filters and edits inverter products; the type counts its products', async () => {
    const page = await s.call(admin, 'GET', '/api/v1/inverter/products?page=1&size=10');
    expect(page.body.data).toMatchObject({ total: 2, list: [{ name: 'HY-5K' }, { name: 'MI-600' }] });
    const byType = await s.call(admin, 'GET', `/api/v1/inverter/products?inverterTypeId=${microId}`);
    expect(byType.body.data).toMatchObject({ total: 1, list: [{ name: 'MI-600' }] });
    expect((await s.call(admin, 'GET', '/api/v1/inverter/products?name=hy')).body.data).toMatchObject({ total: 1 });
    expect((await types()).find((t) => t.id === microId)!.products).toBe(1);
    const mi = (byType.body.data as { list: Product[] }).list[0]!;
    const edited = await s.call(admin, 'POST', `/api/v1/inverter/products/${mi.id}`, { name: 'MI-800', inverterTypeId: microId });
    expect(edited.body.data).toMatchObject({ id: mi.id, name: 'MI-800' });
    expect(
      (await s.call(admin, 'POST', `/api/v1/inverter/products/${mi.id}`, { name: 'HY-5K', inverterTypeId: microId })).body.code,
    ).toBe(4005);
    const all = await s.call(admin, 'GET', '/api/v1/firmware/product/?type=gateway');
    expect((all.body.data as Product[]).map((p) => p.name)).toEqual(['GW-4G']);
    expect((await s.call(admin, 'GET', `/api/v1/firmware/product/${mi.id}`)).body.data).toMatchObject({ name: 'MI-800' });
  });

  it('a type with products is not deleted (1007); an empty one is', async () => {
    expect((await s.call(admin, 'GET', `/api/v1/firmware/inverterType/${microId}/delete`)).body.code).toBe(
      ErrorCode.typeHasSubtype,
    );
    const stringType = (await types()).find((t) => t.name === 'String inverter')!;
    expect((await s.call(admin, 'GET', `/api/v1/firmware/inverterType/${stringType.id}/delete`)).body.code).toBe(ErrorCode.ok);
    expect((await types()).map((t) => t.name)).toEqual(['Micro', 'Hybrid']);
  });

  it('hardware versions: the product’s and its images’, highest first; a product with images is not deleted (4004)', async () => {
    const hy = ((await s.call(admin, 'GET', '/api/v1/inverter/products?name=HY')).body.data as { list: Product[] }).list[0]!;
    const body = multipartBody(
      { productId: String(hy.id), version: '1', hardwareVersion: 'H3' },
      { bytes: Buffer.alloc(100, 1), name: 'hy.bin' },
    );
    const up = await s.app.inject({
      method: 'POST',
      url: '/api/v1/firmware/save',
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${admin}` },
    });
    expect(up.json().code).toBe(ErrorCode.ok);
    expect((await s.call(admin, 'GET', `/api/v1/firmware/hardware?productId=${hy.id}`)).body.data).toEqual([
      'H10',
      'H3',
      'H2',
      'H1',
    ]);
    const mi = ((await s.call(admin, 'GET', '/api/v1/inverter/products?name=MI')).body.data as { list: Product[] }).list[0]!;
    const refused = await s.call(admin, 'POST', '/api/v1/inverter/products/delete', { ids: [mi.id, hy.id] });
    expect(refused.body).toMatchObject({ code: ErrorCode.productInUse, data: null });
    expect(refused.body.msg).toMatch(/HY-5K/);
    expect((await s.call(admin, 'GET', '/api/v1/inverter/products')).body.data).toMatchObject({ total: 2 });
    expect((await s.call(admin, 'POST', '/api/v1/inverter/products/delete', { ids: [mi.id] })).body.data).toEqual({ deleted: 1 });
    const gw = ((await s.call(admin, 'GET', '/api/v1/firmware/product/?type=gateway')).body.data as Product[])[0]!;
    expect((await s.call(admin, 'POST', '/api/v1/inverter/products/delete', { ids: [gw.id] })).body.code).toBe(
      ErrorCode.notFound,
    );
  });

  it('gateway software: versions the fleet reports and the library’s gateway images, highest first', async () => {
    const t = now();
    for (const [sn, sw] of [
      ['GWSW1', 'V1_9'],
      ['GWSW2', 'V1_10'],
      ['GWSW3', null],
      // The library's V2_0 in another style: one version, named as the library names it.
      ['GWSW4', 'V2.0'],
    ] as const) {
      await s.db
        .insertInto('gateways')
        .values({ sn, secret_hash: 'x', claim_key_hash: `y${sn}`, sw_version: sw, created_at: t, updated_at: t } as never)
        .execute();
    }
    const gw = ((await s.call(admin, 'GET', '/api/v1/firmware/product/?type=gateway')).body.data as Product[])[0]!;
    const body = multipartBody({ productId: String(gw.id), version: 'V2_0' }, { bytes: Buffer.alloc(100, 2), name: 'gw2.bin' });
    await s.app.inject({
      method: 'POST',
      url: '/api/v1/firmware/gateway/add',
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${admin}` },
    });
    expect((await s.call(admin, 'GET', '/api/v1/firmware/gateway/software')).body.data).toEqual(['V2_0', 'V1_10', 'V1_9']);
    expect((await s.call(admin, 'GET', `/api/v1/firmware/gateway/software?productId=${gw.id}`)).body.data).toEqual([
      'V2_0',
      'V1_10',
      'V1_9',
    ]);
  });
});
