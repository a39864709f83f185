/**
 * The demo fleet: plants with gateways whose devices the simulator plays. The simulator is a
 * separate program (the server never imports it): its `--print-spec` gives the fleet layout,
 * the server makes the plants and provisions the gateways, and hands the simulator a
 * credentials file. A second start reuses both.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { now } from '../db/index.ts';
import { provisionGateway } from '../telemetry/gateways.ts';
import { DEMO_STEP, type DemoMade } from './demo.ts';
import { stepDone } from './steps.ts';

const run = promisify(execFile);
/**
 * Node arguments that run the simulator CLI with `args`: from the sources through tsx, or, in
 * the server bundle (dist/), the simulator's own bundle beside it (see build.mjs).
 */
export function simulatorArgs(args: string[]): string[] {
  if (import.meta.url.endsWith('.ts')) {
    return ['--import', 'tsx', path.resolve(import.meta.dirname, '../../../simulator/src/cli.ts'), ...args];
  }
  return [path.join(import.meta.dirname, 'simulator.js'), ...args];
}
const plantTypes = { grid: 0, ac: 1, dc: 2 } as const;

interface FleetGateway {
  sn: string;
  secret: string;
  plant: { name: string; lat: number; lon: number; timezone: string; capacityKw: number; type: keyof typeof plantTypes };
  devices: unknown[];
  [key: string]: unknown;
}

export const demoFleetFile = (config: Config) => path.join(config.dataDir, 'demo-fleet.json');

/**
 * Provision the demo fleet once; returns the credentials file for the simulator, and whether it
 * is new; null when the demo's owner is gone (no fleet to play).
 */
export async function ensureDemoFleet(db: Db, config: Config): Promise<{ file: string; created: boolean } | null> {
  const file = demoFleetFile(config);
  if (fs.existsSync(file)) return { file, created: false };
  const { stdout } = await run(
    process.execPath,
    simulatorArgs(['--print-spec', '--gateways', String(config.simulatorGateways), '--seed', '1']),
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const spec = JSON.parse(stdout) as FleetGateway[];
  // The demo's owner and visitor by the ids its set-up recorded: an administrator may have
  // changed or deleted them since. Without its owner, there is no demo fleet to make.
  const made = await stepDone<DemoMade>(db, DEMO_STEP);
  const byId = (id: number | undefined) =>
    id === undefined
      ? undefined
      : db.selectFrom('users').select(['id', 'agent_company_id']).where('id', '=', id).executeTakeFirst();
  const owner = await byId(made?.ownerId);
  if (!owner) return null;
  const visitor = await byId(made?.visitorId);
  const credentials: FleetGateway[] = [];
  for (const [i, gw] of spec.entries()) {
    const t = now();
    const existing = await db.selectFrom('gateways').select('id').where('sn', '=', gw.sn).executeTakeFirst();
    if (existing) await db.deleteFrom('gateways').where('id', '=', existing.id).execute();
    const plant = await db
      .insertInto('plants')
      .values({
        name: gw.plant.name.slice(0, 32),
        type: plantTypes[gw.plant.type] ?? 0,
        capacity: gw.plant.capacityKw,
        owner_user_id: owner.id,
        timezone: gw.plant.timezone,
        currency: 'EUR',
        latitude: gw.plant.lat,
        longitude: gw.plant.lon,
        status: 'offline',
        created_at: t - (spec.length - i) * 86_400_000,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (visitor && i < 3)
      await db
        .insertInto('plant_shares')
        .values({ plant_id: plant.id, user_id: visitor.id, role: 'visitor', created_at: t })
        .execute();
    const provisioned = await provisionGateway(db, {
      sn: gw.sn,
      plantId: plant.id,
      companyId: owner.agent_company_id,
      alias: `${gw.plant.name} gateway`.slice(0, 64),
    });
    credentials.push({ ...gw, secret: provisioned.secret, claimKey: provisioned.claimKey });
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // The secrets are the gateways' passwords: readable by this user only.
  fs.writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return { file, created: true };
}
