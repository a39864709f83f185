import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { device, gateway, storePlant } from '../../../test/kits/plants.ts';
import type { SettingChangesTable } from '../../db/schema.ts';
import { housekeep } from '../../jobs/housekeeping.ts';
import { STALL_MS } from './sweep.ts';

let s: TestServer;
let userId: number;
let gatewayId: number;
let plantId: number;
const T = 1_800_000_000_000;
let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

async function job(state: SettingChangesTable['state'], updatedAt: number, batchId: string | null = null) {
  const id = uuid();
  // A device per job: one device runs one job at a time.
  const deviceId = await device(s, gatewayId, plantId);
  await s.db
    .insertInto('setting_changes')
    .values({
      id,
      batch_id: batchId,
      device_id: deviceId,
      device_sn: 'SN1',
      family: 'dyStore',
      group_name: 'batt',
      kind: 'write',
      revert_of: null,
      state,
      requested: '{"batteryCapacity":100}',
      before_values: null,
      after_values: null,
      error: null,
      error_code: null,
      command_job_id: null,
      requested_by: userId,
      created_at: updatedAt,
      updated_at: updatedAt,
      finished_at: null,
    })
    .execute();
  return id;
}

async function batch() {
  const id = uuid();
  await s.db
    .insertInto('setting_batches')
    .values({
      id,
      family: 'dyStore',
      group_name: 'batt',
      requested: '{}',
      requested_by: userId,
      state: 'running',
      total: 2,
      created_at: T,
      finished_at: null,
    })
    .execute();
  return id;
}

const stateOf = async (id: string) =>
  await s.db.selectFrom('setting_changes').select(['state', 'error_code']).where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  s = await startServer();
  userId = (await s.user()).id;
  plantId = await storePlant(s, { owner_user_id: userId });
  const gw = await gateway(s, plantId);
  gatewayId = (await s.db.selectFrom('gateways').select('id').where('sn', '=', gw.sn).executeTakeFirstOrThrow()).id;
});
afterAll(() => s.close());

describe('interrupted setting jobs', () => {
  it('fails jobs and batches that stopped moving, and leaves the others', async () => {
    const now = T + STALL_MS + 1;
    const stalled = await job('writing', T);
    const moving = await job('verifying', T + 2);
    const done = await job('succeeded', T);
    const staleBatch = await batch();
    const staleQueued = await job('queued', T, staleBatch);
    const staleReading = await job('reading', T, staleBatch);
    const liveBatch = await batch();
    const liveQueued = await job('queued', T, liveBatch);
    await job('reading', T + 2, liveBatch);

    const result = await housekeep({ db: s.db, dataDir: s.config.dataDir, now: () => now });
    expect(result.settings).toBe(3);
    expect(await stateOf(stalled)).toEqual({ state: 'failed', error_code: ErrorCode.timeout });
    expect(await stateOf(staleQueued)).toEqual({ state: 'failed', error_code: ErrorCode.timeout });
    expect(await stateOf(staleReading)).toEqual({ state: 'failed', error_code: ErrorCode.timeout });
    expect((await stateOf(moving)).state).toBe('verifying');
    expect((await stateOf(done)).state).toBe('succeeded');
    expect((await stateOf(liveQueued)).state).toBe('queued');
    const batches = await s.db.selectFrom('setting_batches').select(['id', 'state', 'finished_at']).execute();
    expect(batches.find((b) => b.id === staleBatch)).toMatchObject({ state: 'finished', finished_at: now });
    expect(batches.find((b) => b.id === liveBatch)).toMatchObject({ state: 'running', finished_at: null });
  });
});
