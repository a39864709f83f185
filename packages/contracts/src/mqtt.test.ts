import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import {
  CommandPayload,
  DataPayload,
  hexToRegisters,
  isGatewaySn,
  parseTopic,
  ReplyPayload,
  registersToHex,
  topics,
} from './mqtt.ts';

describe('topics', () => {
  it('builds and parses the protocol topics', () => {
    expect(topics.up('GW0001', 'data')).toBe('sf/gw/GW0001/up/data');
    expect(topics.down('GW0001')).toBe('sf/gw/GW0001/down/cmd');
    expect(topics.allUp('data', 'ingest')).toBe('$share/ingest/sf/gw/+/up/data');
    expect(parseTopic('sf/gw/GW0001/up/state')).toEqual({ sn: 'GW0001', direction: 'up', channel: 'state' });
    expect(parseTopic('sf/gw/GW0001/down/cmd')).toEqual({ sn: 'GW0001', direction: 'down', channel: 'cmd' });
  });
  it('refuses wildcards, other roots, extra levels and bad serial numbers', () => {
    for (const t of [
      'sf/gw/+/up/data',
      'sf/gw/#',
      'sf/gw/GW0001/up/other',
      'sf/gw/GW0001/up/data/x',
      '$SYS/broker',
      'x/gw/GW0001/up/data',
      'sf/gw/G/up/data',
    ]) {
      expect(parseTopic(t), t).toBeNull();
    }
    expect(isGatewaySn('GW-01_a')).toBe(true);
    for (const bad of ['GW+1', 'GW#1', 'GW/1', 'ab', '']) expect(isGatewaySn(bad), bad).toBe(false);
  });
});

describe('payloads', () => {
  const check = Compile(DataPayload);
  const frame = {
    v: 1,
    seq: 1,
    ts: 1_763_700_000_000,
    devices: [{ sn: 'INV1', protocol: 'sunfleet-hybrid-3p', blocks: [{ fc: 3, addr: 0, regs: '0001ffff' }] }],
  };
  it('accepts a well-formed data frame and refuses bad ones', () => {
    expect(check.Check(frame)).toBe(true);
    expect(check.Check({ ...frame, v: 2 })).toBe(false);
    expect(check.Check({ ...frame, devices: [] })).toBe(false);
    expect(check.Check({ ...frame, devices: [{ ...frame.devices[0], blocks: [{ fc: 3, addr: 0, regs: '0001fff' }] }] })).toBe(
      false,
    );
    expect(check.Check({ ...frame, devices: [{ ...frame.devices[0], blocks: [{ fc: 6, addr: 0, regs: '0001' }] }] })).toBe(false);
  });
  it('hex registers round-trip', () => {
    expect(registersToHex([1, 0xffff, 0x1234])).toBe('0001ffff1234');
    expect(hexToRegisters('0001ffff1234')).toEqual([1, 0xffff, 0x1234]);
  });
});

describe('commands and replies', () => {
  const command = Compile(CommandPayload);
  const reply = Compile(ReplyPayload);
  const base = { v: 1, id: 'job-0000001', ts: 1_763_700_000_000 };
  it('accepts every command type the protocol names, and a setting switch only with a known setting', () => {
    for (const type of ['read', 'write', 'restart', 'upgrade', 'debug', 'boot', 'shutdown', 'settings'])
      expect(command.Check({ ...base, type }), type).toBe(true);
    expect(command.Check({ ...base, type: 'format' })).toBe(false);
    expect(command.Check({ ...base, type: 'settings', setting: { name: 'uploadInterval', value: 300 } })).toBe(true);
    expect(command.Check({ ...base, type: 'settings', setting: { name: 'wifiPassword', value: 1 } })).toBe(false);
    expect(command.Check({ ...base, type: 'debug', text: 'x'.repeat(513) })).toBe(false);
    expect(command.Check({ ...base, id: 'a/b', type: 'boot' })).toBe(false);
  });
  it('accepts replies with their status, a debug text up to 4096 characters', () => {
    expect(reply.Check({ ...base, status: 'ok', text: 'x'.repeat(4096) })).toBe(true);
    expect(reply.Check({ ...base, status: 'ok', text: 'x'.repeat(4097) })).toBe(false);
    expect(reply.Check({ ...base, status: 'error', error: 'device has no power switch' })).toBe(true);
    expect(reply.Check({ ...base, status: 'done' })).toBe(false);
  });
});
