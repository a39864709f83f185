import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLoad } from './load-generator.ts';
import { startBroker, type TestBroker } from './testing/broker.ts';
import { messageProblems } from './testing/messages.ts';

let broker: TestBroker;
beforeEach(async () => {
  broker = await startBroker();
});
afterEach(() => broker.close());

describe('load mode', () => {
  it('publishes valid data messages with QoS 1 from many clients and reports its rates', async () => {
    const report = await createLoad({ url: broker.url, gateways: 4, devicesPerGateway: 6, durationS: 1, relay: true }).run();
    expect(report.connected).toBe(4);
    expect(report.failed).toBe(0);
    expect(report.acked).toBeGreaterThan(50);
    expect(Math.abs(report.deviceFramesPerS - 6 * report.messagesPerS)).toBeLessThanOrEqual(3);
    expect(report.relayed).toBeGreaterThan(0);
    expect(report.ackLatencyMs.p99).toBeGreaterThanOrEqual(report.ackLatencyMs.p50);
    const data = broker.messages.filter((m) => m.topic.endsWith('/up/data'));
    for (const m of data.slice(0, 50)) expect(messageProblems(m)).toEqual([]);
    // Each gateway's readings have distinct, increasing times.
    const first = data.filter((m) => m.clientId === 'LOAD000001').map((m) => (m.body as { ts: number }).ts);
    expect(first.every((ts, i) => i === 0 || ts > first[i - 1]!)).toBe(true);
  });

  it('holds a capped rate', async () => {
    const report = await createLoad({ url: broker.url, gateways: 2, devicesPerGateway: 2, durationS: 1, rate: 100 }).run();
    expect(report.messagesPerS).toBeGreaterThan(60);
    expect(report.messagesPerS).toBeLessThan(130);
  });
});
