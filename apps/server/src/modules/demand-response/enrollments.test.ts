/**
 * The enrolment calls: each of the spec's demand-response messages (6001 device exists, 6002
 * device does not exist, 6003 enrolment does not exist, 6004 device already used, 6005 customer
 * account already bound, 6006 inverter SN same), bad input (4, nothing written), another tenant's
 * device (6002), a visitor's device (2), a device that is no storage inverter (601), the states
 * invited → pending → unenrolled, and the plant lookups (700 for another tenant's plant).
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { addDevice, HYBRID, type Site, site } from '../../../test/kits/events.ts';
import { account } from '../../../test/kits/plants.ts';

let s: TestServer;
let a: Site;
let b: Site;
const PROGRAM = 'prog-1';

const body = (over: Record<string, unknown> = {}) => ({
  programId: PROGRAM,
  email: 'Ana@Example.com',
  firstName: 'Ana',
  lastName: 'García',
  serviceAddress: { country: 'ES', region: 'Madrid', locality: 'Madrid', streetAddress: 'Calle Mayor 1', postalCode: '28013' },
  mailingAddress: {
    country: 'ES',
    region: 'Madrid',
    locality: 'Madrid',
    extendedAddress: '2º B',
    streetAddress: 'Calle Mayor 1',
    postalCode: '28013',
  },
  sourceAccount: '12345678',
  utilityAccount: `acct-${Math.random().toString(36).slice(2, 8)}`,
  termsAccepted: true,
  devices: [] as unknown[],
  ...over,
});
const dev = (sn: string) => ({
  sn,
  manufacturer: 'Sunfleet',
  model: 'Hybrid 3p',
  installDate: '2025-05-01',
  chargeCapacity: 5,
  dischargeCapacity: 5,
  storageCapacity: 10.24,
});
const post = (token: string, url: string, payload: unknown = {}) => s.call(token, 'POST', url, payload);
const get = (token: string, url: string) => s.call(token, 'GET', url);
const count = async (table: 'dr_enrollments' | 'dr_enrollment_devices') =>
  Number(
    (
      await s.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  s = await startServer();
  await s.db
    .insertInto('dr_programs')
    .values([
      {
        id: PROGRAM,
        name: 'BESS-DR-2026',
        body: JSON.stringify({ id: PROGRAM, programName: 'BESS-DR-2026' }),
        seen_at: 1,
        deleted_at: null,
      },
      { id: 'no-terms', name: 'Unknown programme', body: '{}', seen_at: 1, deleted_at: null },
    ])
    .execute();
  a = await site(s, { timezone: 'Europe/Madrid' });
  b = await site(s, { timezone: 'America/New_York' });
});
afterAll(() => s.close());

describe('enrolment', () => {
  it('enrols with a storage inverter: pending, devices kept in W, e-mail lower-cased', async () => {
    const res = await post(
      a.owner.token,
      '/api/v1/oadr/enrollment',
      body({ devices: [dev(a.inverter.sn)], stationId: a.plantId }),
    );
    expect(res.body.code).toBe(ErrorCode.ok);
    expect(res.body.data).toMatchObject({
      programName: 'BESS-DR-2026',
      state: 'pending',
      email: 'ana@example.com',
      stationId: a.plantId,
      mailingAddress: { extendedAddress: '2º B' },
      deviceList: [{ sn: a.inverter.sn, stationId: a.plantId, chargeCapacity: 5, storageCapacity: 10.24, registered: false }],
    });
    const row = await s.db
      .selectFrom('dr_enrollment_devices')
      .selectAll()
      .where('sn', '=', a.inverter.sn)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ charge_w: 5000, storage_wh: 10240 });
    const id = (res.body.data as { id: number }).id;
    expect((await get(a.owner.token, `/api/v1/oadr/enrollment/${id}/state`)).body.data).toMatchObject({ id, state: 'pending' });
    const list = await get(a.owner.token, '/api/v1/oadr/enrollments');
    expect(list.body.data).toMatchObject({ total: 1, list: [{ id, devices: 1 }] });
  });

  it('without devices it is invited; adding one makes it pending; the same device again is 6001', async () => {
    const other = await addDevice(s, a.gatewayId, a.plantId, 'inverter', HYBRID);
    const res = await post(a.owner.token, '/api/v1/oadr/enrollment', body());
    expect(res.body.data).toMatchObject({ state: 'invited', deviceList: [] });
    const id = (res.body.data as { id: number }).id;
    const added = await post(a.owner.token, `/api/v1/oadr/enrollment/${id}/devices`, { devices: [dev(other.sn)] });
    expect(added.body).toMatchObject({ code: ErrorCode.ok, data: { state: 'pending', deviceList: [{ sn: other.sn }] } });
    const again = await post(a.owner.token, `/api/v1/oadr/enrollment/${id}/devices`, { devices: [dev(other.sn)] });
    expect(again.body.code).toBe(ErrorCode.drDeviceExists);
    // Removed, it can come back; a device not in the enrolment cannot be removed (6002).
    const removed = await post(a.owner.token, `/api/v1/oadr/enrollment/${id}/devices/${other.sn}/remove`);
    expect(removed.body.data).toMatchObject({ deviceList: [] });
    expect((await post(a.owner.token, `/api/v1/oadr/enrollment/${id}/devices/${other.sn}/remove`)).body.code).toBe(
      ErrorCode.drDeviceMissing,
    );
    expect((await post(a.owner.token, `/api/v1/oadr/enrollment/${id}/devices`, { devices: [dev(other.sn)] })).body.code).toBe(
      ErrorCode.ok,
    );
    const un = await post(a.owner.token, `/api/v1/oadr/enrollment/${id}/unenroll`);
    expect(un.body.data).toMatchObject({ state: 'unenrolled' });
    // An ended enrolment takes no more changes, and its devices are free again.
    expect((await post(a.owner.token, `/api/v1/oadr/enrollment/${id}/unenroll`)).body.code).toBe(ErrorCode.drEnrollmentMissing);
    expect((await post(a.owner.token, '/api/v1/oadr/enrollment', body({ devices: [dev(other.sn)] }))).body.code).toBe(
      ErrorCode.ok,
    );
  });

  it('refuses with the spec’s messages, writing nothing', async () => {
    const before = [await count('dr_enrollments'), await count('dr_enrollment_devices')];
    const third = await addDevice(s, a.gatewayId, a.plantId, 'inverter', HYBRID);
    // 6004: the device is in another active enrolment.
    expect((await post(a.owner.token, '/api/v1/oadr/enrollment', body({ devices: [dev(a.inverter.sn)] }))).body.code).toBe(
      ErrorCode.drDeviceUsed,
    );
    // 6006: the same SN twice.
    expect(
      (await post(a.owner.token, '/api/v1/oadr/enrollment', body({ devices: [dev(third.sn), dev(third.sn)] }))).body.code,
    ).toBe(6006);
    // 6002: no such device.
    expect((await post(a.owner.token, '/api/v1/oadr/enrollment', body({ devices: [dev('NOSUCHSN1')] }))).body.code).toBe(
      ErrorCode.drDeviceMissing,
    );
    // 6002: another tenant's device answers as missing.
    const foreign = await post(a.owner.token, '/api/v1/oadr/enrollment', body({ devices: [dev(b.inverter.sn)] }));
    expect(foreign.body).toMatchObject({ code: ErrorCode.drDeviceMissing, data: null });
    // 601: a battery pack cannot take part (its registers cannot force its battery; the plant's list says why).
    expect((await post(a.owner.token, '/api/v1/oadr/enrollment', body({ devices: [dev(a.battery.sn)] }))).body.code).toBe(
      ErrorCode.inverterUnsupported,
    );
    // 6005: the utility account is already in an active enrolment of the programme.
    const first = await post(a.owner.token, '/api/v1/oadr/enrollment', body({ utilityAccount: 'acct_bound-1' }));
    expect(first.body.code).toBe(ErrorCode.ok);
    expect((await post(b.owner.token, '/api/v1/oadr/enrollment', body({ utilityAccount: 'acct_bound-1' }))).body.code).toBe(
      ErrorCode.drAccountBound,
    );
    await s.db.deleteFrom('dr_enrollments').where('utility_account', '=', 'acct_bound-1').execute();
    // 6003: another user's enrolment, or none.
    const mine = (await post(a.owner.token, '/api/v1/oadr/enrollment', body())).body.data as { id: number };
    await s.db.deleteFrom('dr_enrollments').where('id', '=', mine.id).execute();
    const theirs = (await post(b.owner.token, '/api/v1/oadr/enrollment', body())).body.data as { id: number };
    for (const url of [
      `/api/v1/oadr/enrollment/${theirs.id}`,
      `/api/v1/oadr/enrollment/${theirs.id}/state`,
      '/api/v1/oadr/enrollment/999999',
    ])
      expect((await get(a.owner.token, url)).body).toMatchObject({ code: ErrorCode.drEnrollmentMissing, data: null });
    expect((await post(a.owner.token, `/api/v1/oadr/enrollment/${theirs.id}/unenroll`)).body.code).toBe(
      ErrorCode.drEnrollmentMissing,
    );
    expect(
      (await post(a.owner.token, `/api/v1/oadr/enrollment/${theirs.id}/devices`, { devices: [dev(third.sn)] })).body.code,
    ).toBe(6003);
    await s.db.deleteFrom('dr_enrollments').where('id', '=', theirs.id).execute();
    expect([await count('dr_enrollments'), await count('dr_enrollment_devices')]).toEqual(before);
  });

  it('refuses bad input with code 4 naming the field', async () => {
    const before = await count('dr_enrollments');
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ utilityAccount: 'Upper-Case' }, /utilityAccount/],
      [{ utilityAccount: 'a'.repeat(17) }, /utilityAccount/],
      [{ utilityAccount: 'has space' }, /utilityAccount/],
      [{ sourceAccount: '12ab' }, /sourceAccount/],
      [{ termsAccepted: false }, /termsAccepted/],
      [{ email: 'not-an-email' }, /email/],
      [{ serviceAddress: { country: 'ES' } }, /serviceAddress/],
      [{ programId: 'no-terms' }, /programId/],
      [{ programId: 'unknown' }, /programId/],
      [{ devices: [{ ...dev(a.inverter.sn), chargeCapacity: -1 }] }, /chargeCapacity/],
    ];
    for (const [over, field] of cases) {
      const res = await post(a.owner.token, '/api/v1/oadr/enrollment', body(over));
      expect(res.body.code, JSON.stringify(over)).toBe(ErrorCode.validation);
      expect(res.body.msg, JSON.stringify(over)).toMatch(field);
    }
    expect(await count('dr_enrollments')).toBe(before);
  });

  it('a visitor of a plant may not enrol its devices (2); a read-only account writes nothing (2)', async () => {
    const visitor = await account(s);
    await s.db
      .insertInto('plant_shares')
      .values({ plant_id: b.plantId, user_id: visitor.id, role: 'visitor', created_at: Date.now() })
      .execute();
    expect((await post(visitor.token, '/api/v1/oadr/enrollment', body({ devices: [dev(b.inverter.sn)] }))).body.code).toBe(
      ErrorCode.noPermission,
    );
    const ro = await account(s, { readOnly: true });
    expect((await post(ro.token, '/api/v1/oadr/enrollment', body())).body.code).toBe(ErrorCode.noPermission);
  });
});

describe('plant lookups', () => {
  it('lists the caller’s plants they may operate with their storage inverters; another id is refused', async () => {
    const res = await get(a.owner.token, `/api/v1/oadr/userStationList/${a.owner.id}`);
    expect(res.body.data).toEqual([
      { id: a.plantId, name: expect.any(String), timezone: 'Europe/Madrid', storageDevices: expect.any(Number) },
    ]);
    expect((await get(a.owner.token, `/api/v1/oadr/userStationList/${b.owner.id}`)).body).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
  });

  it('a plant’s devices with a battery with what the portal knows, one that cannot take part with why; its zone; 700 for another tenant’s plant', async () => {
    const pcs = await addDevice(s, b.gatewayId, b.plantId, 'inverter', 'sunfleet-pcs-3p');
    const res = await get(b.owner.token, `/api/v1/oadr/stationMasterDevice/${b.plantId}`);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        sn: b.inverter.sn,
        manufacturer: 'Sunfleet',
        model: expect.stringContaining('hybrid'),
        enrolled: false,
        cannotTakePart: null,
      }),
      // The battery pack's registers have no power control: shown, and why it cannot take part.
      expect.objectContaining({ sn: b.battery.sn, enrolled: false, cannotTakePart: 'noPowerControl' }),
      // The PCS takes part through its storage control.
      expect.objectContaining({ sn: pcs.sn, model: expect.stringContaining('PCS'), cannotTakePart: null }),
    ]);
    await s.db.updateTable('devices').set({ deleted_at: Date.now() }).where('id', '=', pcs.id).execute();
    const tz = await get(b.owner.token, `/api/v1/oadr/stationTimezoneId/${b.plantId}`);
    expect(tz.body.data).toMatchObject({
      stationId: b.plantId,
      timezone: 'America/New_York',
      offset: expect.stringMatching(/^-0[45]:00$/),
    });
    expect((await get(a.owner.token, `/api/v1/oadr/stationMasterDevice/${b.plantId}`)).body).toMatchObject({
      code: ErrorCode.plantMissing,
      data: null,
    });
    expect((await get(a.owner.token, `/api/v1/oadr/stationTimezoneId/${b.plantId}`)).body).toMatchObject({
      code: ErrorCode.plantMissing,
      data: null,
    });
    const zones = (await get(a.owner.token, '/api/v1/oadr/timezones')).body.data as { id: string; offset: string }[];
    expect(zones.find((z) => z.id === 'Europe/Madrid')).toEqual({
      id: 'Europe/Madrid',
      offset: expect.stringMatching(/^\+0[12]:00$/),
    });
    expect(zones.some((z) => z.offset === '+05:30')).toBe(true);
  });

  it('without a VTN the programme list says it is not connected and lists nothing', async () => {
    expect((await get(a.owner.token, '/api/v1/oadr/listProgram')).body.data).toEqual({
      connected: false,
      live: false,
      programs: [],
      vtn: null,
    });
  });
});
