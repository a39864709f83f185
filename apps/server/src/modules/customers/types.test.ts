/**
 * Customer types over HTTP: add, edit, read, list (a tree paged over the types), pickers,
 * delete; subtypes one level deep (1007 for a type with a subtype: no parent for it, no delete),
 * names unique, the limits and one past them, the audit record of each change, and nobody but
 * the platform operator reaches any of it.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { now } from '../../db/index.ts';

let s: TestServer;
let sys: string;

type Type = { id: number; name: string; remark: string | null; parentId: number | null; customers: number; children: Type[] };

async function add(name: string, extra: Record<string, unknown> = {}) {
  const res = await s.call(sys, 'POST', '/api/v1/customerType', { name, ...extra });
  expect(res.body, name).toMatchObject({ code: ErrorCode.ok });
  return res.body.data as Type;
}
const audits = (id: number) =>
  s.db
    .selectFrom('admin_audit')
    .select(['action', 'before_values', 'after_values'])
    .where('entity', '=', 'customer_type')
    .where('entity_id', '=', String(id))
    .orderBy('id')
    .execute();

beforeAll(async () => {
  s = await startServer();
  sys = (await s.login((await s.user({ kind: 'sysadmin' })).account)).access;
});
afterAll(() => s.close());

describe('customer types', () => {
  it('adds a type and a subtype with remark and permissions; reads them as a tree; records each change', async () => {
    const top = await add('Distributor', { remark: 'Sells to installers', permissions: ['station.view'] });
    const sub = await add('Installer', { parentId: top.id, remark: null });
    expect(sub).toMatchObject({ parentId: top.id, children: [] });
    const read = await s.call(sys, 'GET', `/api/v1/customerType/${top.id}`);
    expect(read.body.data).toMatchObject({
      name: 'Distributor',
      remark: 'Sells to installers',
      permissions: ['station.view'],
      parentId: null,
      children: [{ id: sub.id, name: 'Installer', parentId: top.id }],
    });
    const edited = await s.call(sys, 'POST', `/api/v1/customerType/${top.id}`, { name: 'Distributors', remark: 'Wholesale' });
    expect(edited.body).toMatchObject({
      code: ErrorCode.ok,
      data: { name: 'Distributors', remark: 'Wholesale', permissions: ['station.view'] },
    });
    const log = await audits(top.id);
    expect(log.map((r) => r.action)).toEqual(['create', 'edit']);
    expect(JSON.parse(log[1]!.before_values!)).toMatchObject({ name: 'Distributor', remark: 'Sells to installers' });
    expect(JSON.parse(log[1]!.after_values!)).toMatchObject({ name: 'Distributors', remark: 'Wholesale' });
  });

  it('lists types with their subtypes, paged over the types; a name finds a type by a subtype; pickers list a type before its subtypes', async () => {
    const a = await add('Alpha reseller');
    await add('Alpha sub one', { parentId: a.id });
    await add('Beta reseller');
    const list = async (q: string) =>
      (await s.call(sys, 'GET', `/api/v1/customerTypes?${q}`)).body.data as { total: number; list: Type[] };
    const all = await list('size=100');
    expect(all.list.map((t) => t.name)).toEqual(['Alpha reseller', 'Beta reseller', 'Distributors']);
    expect(all.list[0]!.children.map((c) => c.name)).toEqual(['Alpha sub one']);
    const paged = await list('size=2&page=2');
    expect(paged).toMatchObject({ total: 3, list: [{ name: 'Distributors' }] });
    expect((await list('name=sub%20one')).list.map((t) => t.name)).toEqual(['Alpha reseller']);
    const picks = (await s.call(sys, 'GET', '/api/v1/customer/types')).body.data as Array<{
      name: string;
      parentId: number | null;
    }>;
    expect(picks.map((p) => p.name)).toEqual(['Alpha reseller', 'Alpha sub one', 'Beta reseller', 'Distributors', 'Installer']);
  });

  it('1007: a type with a subtype is not deleted and gets no parent; a subtype gets no subtype (4)', async () => {
    const top = await add('Parent type');
    const sub = await add('Child type', { parentId: top.id });
    const other = await add('Other parent');
    expect((await s.call(sys, 'POST', `/api/v1/customerType/${top.id}/delete`)).body.code).toBe(ErrorCode.typeHasSubtype);
    expect(
      (await s.call(sys, 'POST', `/api/v1/customerType/${top.id}`, { name: 'Parent type', parentId: other.id })).body.code,
    ).toBe(1007);
    expect((await s.call(sys, 'POST', '/api/v1/customerType', { name: 'Grandchild', parentId: sub.id })).body.code).toBe(
      ErrorCode.validation,
    );
    expect(
      (await s.call(sys, 'POST', `/api/v1/customerType/${other.id}`, { name: 'Other parent', parentId: other.id })).body.code,
    ).toBe(4);
    expect(await s.db.selectFrom('customer_types').select('id').where('id', '=', top.id).executeTakeFirst()).toBeDefined();
    // Once its subtype is gone, it is deleted, and the deletion recorded.
    expect((await s.call(sys, 'POST', `/api/v1/customerType/${sub.id}/delete`)).body.code).toBe(ErrorCode.ok);
    expect((await s.call(sys, 'POST', `/api/v1/customerType/${top.id}/delete`)).body).toMatchObject({
      code: ErrorCode.ok,
      data: null,
    });
    expect((await audits(top.id)).at(-1)).toMatchObject({ action: 'delete', after_values: null });
    expect((await s.call(sys, 'GET', `/api/v1/customerType/${top.id}`)).body.code).toBe(ErrorCode.notFound);
  });

  it('concurrent adds of one name: one is added, the others answer 4', async () => {
    const res = await Promise.all([1, 2, 3, 4].map(() => s.call(sys, 'POST', '/api/v1/customerType', { name: 'Racing type' })));
    expect(res.map((r) => r.body.code).sort()).toEqual([
      ErrorCode.ok,
      ErrorCode.validation,
      ErrorCode.validation,
      ErrorCode.validation,
    ]);
  });

  it('a type customers hold is not deleted (4)', async () => {
    const held = await add('Held type');
    const t = now();
    await s.db
      .insertInto('companies')
      .values({ name: 'Holder Co', customer_type_id: held.id, created_at: t, updated_at: t })
      .execute();
    expect((await s.call(sys, 'POST', `/api/v1/customerType/${held.id}/delete`)).body.code).toBe(ErrorCode.validation);
    expect((await s.call(sys, 'GET', `/api/v1/customerType/${held.id}`)).body.data).toMatchObject({ customers: 1 });
  });

  it('holds the limits: name 1–32 and unique in any case, remark up to 255, known company permissions; nothing written', async () => {
    await add('T'.repeat(32), { remark: 'r'.repeat(255) });
    const bad: Array<[string, Record<string, unknown>]> = [
      ['name of 33', { name: 'T'.repeat(33) }],
      ['empty name', { name: '' }],
      ['blank name', { name: '  ' }],
      ['taken name', { name: 'DISTRIBUTORS' }],
      ['remark of 256', { name: 'Remark type', remark: 'r'.repeat(256) }],
      ['forbidden character', { name: 'Type <b>' }],
      ['platform permission', { name: 'Greedy type', permissions: ['user.producer'] }],
      ['unknown parent', { name: 'Orphan type', parentId: 99999 }],
    ];
    const before = await s.db.selectFrom('customer_types').select('id').execute();
    for (const [what, payload] of bad)
      expect((await s.call(sys, 'POST', '/api/v1/customerType', payload)).body.code, what).toBe(ErrorCode.validation);
    expect(await s.db.selectFrom('customer_types').select('id').execute()).toHaveLength(before.length);
    expect((await s.call(sys, 'POST', '/api/v1/customerType/99999', { name: 'Ghost' })).body.code).toBe(ErrorCode.notFound);
    expect((await s.call(sys, 'POST', '/api/v1/customerType/99999/delete')).body.code).toBe(ErrorCode.notFound);
  });

  it('is the platform operator’s alone: a company administrator holding every company permission gets 2', async () => {
    const t = now();
    const company = await s.db
      .insertInto('companies')
      .values({ name: 'Curious Co', permissions: '["company.management"]', created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const admin = (await s.login((await s.user({ kind: 'company_admin', companyId: company.id })).account)).access;
    const type = await add('Guarded type');
    for (const [method, url, payload] of [
      ['GET', '/api/v1/customerTypes', undefined],
      ['GET', '/api/v1/customer/types', undefined],
      ['GET', `/api/v1/customerType/${type.id}`, undefined],
      ['POST', '/api/v1/customerType', { name: 'Sneaky' }],
      ['POST', `/api/v1/customerType/${type.id}`, { name: 'Sneaky' }],
      ['POST', `/api/v1/customerType/${type.id}/delete`, undefined],
    ] as const) {
      expect((await s.call(admin, method, url, payload)).body, `${method} ${url}`).toMatchObject({
        code: ErrorCode.noPermission,
        data: null,
      });
    }
    expect((await s.call(sys, 'GET', `/api/v1/customerType/${type.id}`)).body.data).toMatchObject({ name: 'Guarded type' });
  });
});
