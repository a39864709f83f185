/**
 * Alias and delete. Both need the button permission (the route's access) and edit rights on
 * the device (its plant operable, or an unbound device of the caller's company).
 *
 * Delete is soft: the row gets `deleted_at`, drops out of every list and count, its open events
 * end, and its plant's status and summary are recomputed. Samples, rollups and events stay
 * with the plant. A deleted device that sends data again through its own gateway is attached
 * anew by ingest (`reattachDevice` of its discovery; any other gateway is refused):
 * ingest is told to forget its cached entry.
 */
import { ErrorCode, limits } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import type { Caller } from '../../access/caller.ts';
import { deviceFor } from '../../access/resolve.ts';
import { now } from '../../db/index.ts';
import type { DeviceKind } from '../../db/schema.ts';
import { resumPlantGrid } from '../../energy/plant-grid.ts';
import { refreshPlantStatus } from '../../energy/plant-status.ts';
import { refreshPlantSummary } from '../../energy/plant-summary.ts';
import { fail } from '../../http/errors.ts';
import * as repo from './edit.repo.ts';
import { devicesChanged } from './list.ts';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

export async function setAlias(app: FastifyInstance, caller: Caller, kind: DeviceKind, sn: string, input: string) {
  const { db } = app.deps;
  const alias = input.trim();
  if (bytes(alias) > limits.deviceAliasBytes) fail(ErrorCode.validation, `body.alias: at most ${limits.deviceAliasBytes} bytes`);
  const device = await deviceFor(db, caller, { sn }, { kind, need: 'operate' });
  await repo.setDeviceAlias(db, device.id, alias || null, now());
  devicesChanged();
  app.deps.ingest?.forget({ deviceSn: device.sn });
  return { sn: device.sn, alias: alias || null };
}

export async function deleteDevice(app: FastifyInstance, caller: Caller, kind: DeviceKind, by: { sn: string } | { id: number }) {
  const { db } = app.deps;
  const device = await deviceFor(db, caller, by, { kind, need: 'operate' });
  const plantId = device.plantId;
  const t = now();
  await db.transaction().execute(async (trx) => {
    await repo.softDeleteDevice(trx, device.id, t);
    if (plantId !== null) {
      // A deleted master meter stops being the plant's: its days are re-summed from the others.
      if (await repo.dropMasterMeter(trx, plantId, device.id)) await resumPlantGrid(trx, plantId, t);
      await refreshPlantStatus(trx, [plantId]);
    }
  });
  if (plantId !== null) await refreshPlantSummary(db, [plantId]);
  devicesChanged();
  app.deps.ingest?.forget({ deviceSn: device.sn });
  return null;
}
