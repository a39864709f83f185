/** Topic rules and the rate limiter, without a broker. */
import { describe, expect, it } from 'vitest';
import { type Identity, mayPublish, maySubscribe } from './acl.ts';
import { RateLimiter } from './rate-limit.ts';

const gw: Identity = { kind: 'gateway', sn: 'GW-0001' };
const server: Identity = { kind: 'server', username: 'sunfleet.server' };

describe('publish rules', () => {
  it.each([
    ['sf/gw/GW-0001/up/data', false, 'data'],
    ['sf/gw/GW-0001/up/event', false, 'event'],
    ['sf/gw/GW-0001/up/reply', false, 'reply'],
    ['sf/gw/GW-0001/up/state', false, 'state'],
    ['sf/gw/GW-0001/up/state', true, 'state'],
  ])('lets a gateway publish %s (retain %s)', (topic, retain, channel) => {
    expect(mayPublish(gw, topic, retain)).toEqual({ ok: true, channel });
  });

  it.each([
    ['sf/gw/GW-0002/up/data', false],
    ['sf/gw/GW-0001/up/data', true],
    ['sf/gw/GW-0001/up/reply', true],
    ['sf/gw/GW-0001/down/cmd', false],
    ['sf/gw/GW-0001/up/data/extra', false],
    ['sf/gw/GW-0001/up', false],
    ['$SYS/x', false],
    ['sf/gw/+/up/data', false],
    ['other/GW-0001', false],
  ])('refuses a gateway publishing %s (retain %s)', (topic, retain) => {
    expect(mayPublish(gw, topic, retain).ok).toBe(false);
  });

  it('lets the server publish anywhere but $ topics and retained commands', () => {
    expect(mayPublish(server, 'sf/gw/GW-0002/down/cmd', false).ok).toBe(true);
    expect(mayPublish(server, 'sunfleet/anything', true).ok).toBe(true);
    expect(mayPublish(server, 'sf/gw/GW-0002/down/cmd', true)).toEqual({ ok: false, reason: 'retained command' });
    expect(mayPublish(server, '$SYS/x', false).ok).toBe(false);
  });
});

describe('subscribe rules', () => {
  it('lets a gateway subscribe only to its own down/cmd', () => {
    expect(maySubscribe(gw, 'sf/gw/GW-0001/down/cmd')).toBe(true);
    for (const f of [
      '#',
      '+/#',
      '$SYS/#',
      'sf/gw/GW-0002/down/cmd',
      'sf/gw/+/down/cmd',
      'sf/gw/GW-0001/#',
      'sf/gw/GW-0001/up/data',
    ])
      expect(maySubscribe(gw, f), f).toBe(false);
  });
  it('lets the server subscribe widely but not to $share (the embedded broker has no shared subscriptions)', () => {
    expect(maySubscribe(server, 'sf/gw/+/up/+')).toBe(true);
    expect(maySubscribe(server, '$share/g/sf/gw/+/up/+')).toBe(false);
  });
});

describe('rate limiter', () => {
  it('lets a burst go at once, then holds each message until its token is due, per key', () => {
    const r = new RateLimiter({ perSecond: 2, burst: 3 });
    const t = 1_000_000;
    expect([r.reserve('a', t), r.reserve('a', t), r.reserve('a', t)]).toEqual([0, 0, 0]);
    expect(r.reserve('a', t)).toBe(500); // the 4th waits for the next token
    expect(r.reserve('a', t)).toBe(1000); // and the 5th for the one after
    expect(r.reserve('b', t)).toBe(0);
    // At t + 1 s the two promised tokens have come: the next message waits half a second again.
    expect(r.reserve('a', t + 1000)).toBe(500);
    expect(r.reserve('a', t + 3000)).toBe(0);
  });
  it('forgets buckets that have refilled', () => {
    const r = new RateLimiter({ perSecond: 1, burst: 2 });
    r.reserve('a', 0);
    r.reserve('b', 0);
    r.reserve('b', 0);
    r.prune(1000);
    expect(r.size).toBe(1);
    r.prune(2000);
    expect(r.size).toBe(0);
  });
});
