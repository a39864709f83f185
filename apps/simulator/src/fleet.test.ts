import { topics } from '@sunfleet/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDemoFleet } from './demo.ts';
import { createFleet, type Fleet } from './fleet.ts';
import { startBroker, type TestBroker } from './testing/broker.ts';
import { messageProblems } from './testing/messages.ts';

let broker: TestBroker;
let fleet: Fleet | undefined;
beforeEach(async () => {
  broker = await startBroker();
});
afterEach(async () => {
  await fleet?.stop();
  fleet = undefined;
  await broker.close();
});

describe('a fleet', () => {
  it('starts every gateway, uploads a day of history within seconds, then goes live; stops cleanly', async () => {
    const gateways = makeDemoFleet({ count: 6 });
    fleet = createFleet({
      url: broker.url,
      gateways,
      interval: 60,
      backfillDays: 1,
      backfillIntervalS: 300,
      faultRate: 1,
      offlineRate: 0,
    });
    await fleet.start();
    expect(fleet.stats()).toMatchObject({ gateways: 6, online: 6, devices: gateways.reduce((n, g) => n + g.devices.length, 0) });
    // 288 readings of history per gateway (5-minute steps over a day), then the live one.
    await broker.waitForCount(
      (m) => m.topic.endsWith('/up/data') && (m.body as { buffered?: boolean }).buffered === true,
      6 * 288,
      20_000,
    );
    // The broker sees a message a moment before its acknowledgement reaches the gateway.
    const deadline = Date.now() + 5000;
    while (fleet.stats().published < 6 * 288 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const stats = fleet.stats();
    expect(stats.published).toBeGreaterThanOrEqual(6 * 288);
    expect(stats.failed).toBe(0);
    const sample = broker.messages.filter((m) => m.topic.endsWith('/up/data')).filter((_, i) => i % 97 === 0);
    for (const m of sample) expect(messageProblems(m)).toEqual([]);
    await fleet.stop();
    for (const g of gateways) {
      const last = broker.messages.filter((m) => m.topic === topics.up(g.sn, 'state')).at(-1)!;
      expect(last.body).toMatchObject({ online: false });
    }
  });
});
