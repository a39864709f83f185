/** Shared fixtures for the plant tests: tenants, plants, gateways with devices and their data. */
import { companyGrantable, ErrorCode } from '@sunfleet/contracts';
import { now } from '../../src/db/index.ts';
import type { DeviceKind, EventLevel } from '../../src/db/schema.ts';
import { provisionGateway } from '../../src/telemetry/gateways.ts';
import type { TestServer } from '../harness.ts';

export interface Account {
  id: number;
  account: string;
  token: string;
}

let seq = 0;
export const uniqueName = (prefix = 'Plant') => `${prefix} ${process.pid % 1000}-${++seq}`;
export const uniqueSn = (prefix = 'GW') =>
  `${prefix}${process.pid.toString(36)}${(++seq).toString(36)}${Date.now() % 100000}`.toUpperCase();

export async function account(s: TestServer, opts: Parameters<TestServer['user']>[0] = {}): Promise<Account> {
  const u = await s.user(opts);
  return { ...u, token: (await s.login(u.account)).access };
}

export async function company(s: TestServer, name = uniqueName('Company'), permissions: string[] = companyGrantable) {
  const t = now();
  return (
    await s.db
      .insertInto('companies')
      .values({ name, permissions: JSON.stringify(permissions), created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

/** Create a plant through the API as `who`; returns its id. */
export async function createPlant(s: TestServer, who: Account, fields: Record<string, unknown> = {}): Promise<number> {
  const res = await s.call(who.token, 'POST', '/api/v1/plant', {
    name: uniqueName(),
    capacity: 10,
    type: 0,
    timezone: 'Europe/Madrid',
    ...fields,
  });
  if (res.body.code !== ErrorCode.ok) throw new Error(`create plant: ${JSON.stringify(res.body)}`);
  return (res.body.data as { id: number }).id;
}

/** A plant straight in the store (for many plants, or odd states). */
export async function storePlant(
  s: TestServer,
  values: Partial<{
    name: string;
    owner_user_id: number | null;
    company_id: number | null;
    status: string;
    type: number;
    timezone: string;
    capacity: number;
    created_at: number;
    latitude: number | null;
    longitude: number | null;
    alias: string | null;
  }> = {},
) {
  const t = values.created_at ?? now();
  return (
    await s.db
      .insertInto('plants')
      .values({ name: uniqueName(), created_at: t, updated_at: t, ...values })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

export async function gateway(s: TestServer, plantId: number | null = null, claimKey = 'CLAIMKEY0001') {
  return provisionGateway(s.db, { sn: uniqueSn(), claimKey, plantId });
}

/** A device on a gateway, with latest values if given. */
export async function device(
  s: TestServer,
  gatewayId: number,
  plantId: number | null,
  opts: {
    kind?: DeviceKind;
    status?: 'normal' | 'offline' | 'warning' | 'fault' | 'upgrading';
    latest?: Record<string, number>;
    ts?: number;
  } = {},
) {
  const t = now();
  const id = (
    await s.db
      .insertInto('devices')
      .values({
        sn: uniqueSn('DEV'),
        gateway_id: gatewayId,
        plant_id: plantId,
        kind: opts.kind ?? 'inverter',
        protocol_id: 'string-inverter',
        status: opts.status ?? 'normal',
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  if (opts.latest) {
    await s.db
      .insertInto('device_latest')
      .values({ device_id: id, ts: opts.ts ?? t, values: JSON.stringify(opts.latest), updated_at: t })
      .execute();
  }
  return id;
}

export async function plantDay(s: TestServer, plantId: number, day: string, pvWh: number) {
  await s.db.insertInto('plant_day').values({ plant_id: plantId, day, pv_wh: pvWh, updated_at: now() }).execute();
}

export async function event(
  s: TestServer,
  plantId: number,
  opts: { level?: EventLevel; open?: boolean; startedAt?: number; code?: string } = {},
) {
  const t = opts.startedAt ?? now();
  return (
    await s.db
      .insertInto('events')
      .values({
        plant_id: plantId,
        sn: uniqueSn('EV'),
        source: 'device',
        code: opts.code ?? 'E01',
        level: opts.level ?? 'fault',
        text_en: 'Grid overvoltage',
        text_es: 'Sobretensión de red',
        started_at: t,
        ended_at: opts.open === false ? t + 60_000 : null,
        created_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

/** A tiny valid PNG and a multipart body carrying it. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
export function multipart(file: Buffer, filename = 'p.png', type = 'image/png') {
  const boundary = '----sunfleet-test';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
