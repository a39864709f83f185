/**
 * What the upgrade tests share: a firmware image stored as the firmware library stores one (its
 * bytes at `firmwareBlobPath`, its row with the server's real signature), plants with a gateway
 * and an inverter behind the command rig's broker, and a gateway that answers an upgrade step by
 * step as the protocol says (accepted, progress per stage, ok or error) and reboots.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type CommandMessage, topics } from '@sunfleet/contracts';
import { firmwareBlobPath, loadFirmwareSigner } from '../../src/firmware/signing.ts';
import { provisionGateway } from '../../src/telemetry/gateways.ts';
import { type CommandRig, TestGateway } from '../commands.ts';
import type { TestServer } from '../harness.ts';
import { waitFor } from '../mqtt.ts';
import { dataMessage, HYBRID } from '../telemetry.ts';
import { addDevice } from './events.ts';
import { type Account, storePlant, uniqueSn } from './plants.ts';

export interface StoredFirmware {
  id: number;
  version: string;
  bytes: Buffer;
  sha256: string;
  signature: string;
}

let made = 0;

/** An image of `type` stored with its blob and signature. */
export async function storeFirmware(
  s: TestServer,
  opts: { type: 'gateway' | 'inverter'; version: string; size?: number; enabled?: boolean; bytes?: Buffer },
): Promise<StoredFirmware> {
  const bytes = opts.bytes ?? randomBytes(opts.size ?? 4096);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const file = firmwareBlobPath(s.config.dataDir, sha256);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  const signature = loadFirmwareSigner(s.config.dataDir).sign(sha256);
  const t = Date.now();
  const row = await s.db
    .insertInto('firmware')
    .values({
      type: opts.type,
      product_name: opts.type === 'gateway' ? 'SFG gateway' : 'Hybrid 3P',
      epn: null,
      brand: null,
      hardware_version: null,
      compatible_software: null,
      upgrade_mode: 'IAP',
      file_name: `fw-${process.pid}-${++made}.bin`,
      version: opts.version,
      size: bytes.length,
      sha256,
      signature,
      change_log: null,
      enabled: opts.enabled === false ? 0 : 1,
      created_by: 1,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, version: opts.version, bytes, sha256, signature };
}

/** A gateway that runs upgrades by hand: the test sends its replies. */
export class UpgradeGateway extends TestGateway {
  constructor(
    sn: string,
    secret: string,
    readonly rig: CommandRig,
  ) {
    super(sn, secret);
    // Everything but upgrades answered ok at once; upgrades and their aborts wait for the test.
    this.respond = () => ({ status: 'ok' });
  }

  async online(): Promise<void> {
    await this.connect(this.rig.broker.port);
    await waitFor(async () => (await isOnline(this.rig.s, this.sn)) === true, 5000, `${this.sn} online`);
  }

  /** Reboot: drop the connection, come back and say `sw` (the broker's presence writes it). */
  async reboot(sw?: string): Promise<void> {
    await this.disconnect();
    await waitFor(async () => (await isOnline(this.rig.s, this.sn)) === false, 5000, `${this.sn} offline`);
    await this.connect(this.rig.broker.port);
    if (sw !== undefined)
      await this.client!.publishAsync(topics.up(this.sn, 'state'), JSON.stringify({ v: 1, online: true, sw, interval: 60 }), {
        qos: 1,
        retain: true,
      });
    await waitFor(
      async () => {
        const g = await this.rig.s.db
          .selectFrom('gateways')
          .select(['online', 'sw_version'])
          .where('sn', '=', this.sn)
          .executeTakeFirst();
        return Number(g?.online) === 1 && (sw === undefined || g?.sw_version === sw);
      },
      5000,
      `${this.sn} back`,
    );
  }

  /** The upgrade commands received (the last one first in `at(-1)`). */
  upgrades(): CommandMessage[] {
    return this.received.filter((c) => c.type === 'upgrade');
  }

  /** Send an inverter's data frame (taken at `ts`) with its firmware registers (its version as ingest stores it). */
  async report(inverterSn: string, firmwareHex: string, ts = Date.now()): Promise<void> {
    await this.client!.publishAsync(
      topics.up(this.sn, 'data'),
      dataMessage(ts, [{ sn: inverterSn, protocol: HYBRID, values: { controlFirmware: firmwareHex } }]),
      { qos: 1 },
    );
  }
}

async function isOnline(s: TestServer, sn: string) {
  const r = await s.db.selectFrom('gateways').select('online').where('sn', '=', sn).executeTakeFirst();
  return Number(r?.online) === 1;
}

export interface UpgradePlant {
  plantId: number;
  gatewayId: number;
  gateway: UpgradeGateway;
  inverterSn: string;
}

/** A plant of `owner` with a gateway (online unless told, reporting `sw`) and a hybrid inverter. */
export async function upgradePlant(
  rig: CommandRig,
  owner: Account,
  opts: { online?: boolean; sw?: string; companyId?: number } = {},
): Promise<UpgradePlant> {
  const plantId = await storePlant(rig.s, { owner_user_id: owner.id, ...(opts.companyId ? { company_id: opts.companyId } : {}) });
  const gw = await provisionGateway(rig.s.db, { sn: uniqueSn('GW'), plantId });
  if (opts.sw) await rig.s.db.updateTable('gateways').set({ sw_version: opts.sw }).where('id', '=', gw.id).execute();
  const inverter = await addDevice(rig.s, gw.id, plantId, 'inverter', HYBRID);
  const gateway = new UpgradeGateway(gw.sn, gw.secret, rig);
  gateway.behaviour = 'silent';
  if (opts.online !== false) await gateway.online();
  return { plantId, gatewayId: gw.id, gateway, inverterSn: inverter.sn };
}
