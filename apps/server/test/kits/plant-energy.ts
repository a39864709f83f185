/**
 * Fixtures for the overview tests: a server with ingest in the same process (as `npm start`),
 * real gateway frames through ingest, and plant-local times computed independently of the code
 * under test (Intl, not time/).
 */

import { ErrorCode } from '@sunfleet/contracts';
import { canonicalTimezone } from '../../src/time/index.ts';
import type { TestServer } from '../harness.ts';
import { type IngestServer, ingestServer } from '../ingest.ts';
import { type DeviceFrameSpec, dataMessage } from '../telemetry.ts';

export interface OverviewServer extends IngestServer {
  /** One gateway message with these devices at `ts` (received at `receivedAt`, default `ts`), flushed. */
  send(gatewaySn: string, ts: number, devices: DeviceFrameSpec[], receivedAt?: number): Promise<void>;
}

export async function overviewServer(): Promise<OverviewServer> {
  const server = await ingestServer();
  const { ingest } = server;
  return {
    ...server,
    async send(gatewaySn, ts, devices, receivedAt = ts) {
      ingest.message(gatewaySn, 'data', dataMessage(ts, devices), receivedAt);
      await ingest.flush();
    },
  };
}

/** The data `url` answers the holder of `token` with; any other answer than code 0 throws, naming the URL. */
export async function dataFor<T = Record<string, unknown>>(s: TestServer, token: string, url: string): Promise<T> {
  const body = (await s.call(token, 'GET', url)).body;
  if (body.code !== ErrorCode.ok) throw new Error(`${url}: ${JSON.stringify(body)}`);
  return body.data as T;
}

/** The local date (YYYY-MM-DD) of `ts` in `timeZone` (en-CA formats as YYYY-MM-DD). */
export const dayIn = (timeZone: string, ts: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ts);

/** The local hour (0–23, fractional) of `ts` in `timeZone`. */
export function hourIn(timeZone: string, ts: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(ts);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return get('hour') + get('minute') / 60;
}

const zones = [
  'Pacific/Kiritimati',
  'Pacific/Auckland',
  'Australia/Sydney',
  'Asia/Tokyo',
  'Asia/Shanghai',
  'Asia/Bangkok',
  'Asia/Kolkata',
  'Asia/Dubai',
  'Europe/Moscow',
  'Europe/Madrid',
  'UTC',
  'Atlantic/Azores',
  'America/Sao_Paulo',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'Pacific/Pago_Pago',
  // Under the name the runtime lists (Asia/Kolkata is Asia/Calcutta to Node 20's ICU): the name a
  // plant stores (time/zones.ts), so the tests expect what the server answers.
].map((z) => canonicalTimezone(z) ?? z);

/** A zone where it is around midday now: "today" then holds the last few hours whatever the clock. */
export function middayZone(now = Date.now()): string {
  let best = zones[0]!;
  for (const z of zones) if (Math.abs(hourIn(z, now) - 12.5) < Math.abs(hourIn(best, now) - 12.5)) best = z;
  return best;
}

export const MIN = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
