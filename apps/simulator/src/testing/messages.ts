// Test support: check a captured message the way the server's edge would: its payload
// schema, and for data, that every device's blocks decode with its protocol.
import { DataPayload, GatewayEventPayload, hexToRegisters, parseTopic, ReplyPayload, StatePayload } from '@sunfleet/contracts';
import { protocolPlan } from '@sunfleet/protocols';
import { Compile } from 'typebox/compile';
import type { Captured } from './broker.ts';

const schemas = {
  data: Compile(DataPayload),
  state: Compile(StatePayload),
  event: Compile(GatewayEventPayload),
  reply: Compile(ReplyPayload),
};

/** Problems with a message a gateway published; empty when it is fine. */
export function messageProblems(m: Captured): string[] {
  const topic = parseTopic(m.topic);
  if (topic?.direction !== 'up') return [`not a gateway topic: ${m.topic}`];
  if (topic.sn !== m.clientId) return [`${m.clientId} published under ${topic.sn}`];
  const check = schemas[topic.channel];
  if (!check.Check(m.body)) return [...check.Errors(m.body)].map((e) => `${m.topic}: ${e.instancePath} ${e.message}`);
  const problems: string[] = [];
  if (topic.channel === 'data') {
    for (const device of (
      m.body as { devices: { sn: string; protocol: string; blocks: { fc: number; addr: number; regs: string }[] }[] }
    ).devices) {
      const plan = protocolPlan(device.protocol);
      if (!plan) {
        problems.push(`${device.sn}: unknown protocol ${device.protocol}`);
        continue;
      }
      const { missing, values } = plan.decode(
        device.blocks.map((b) => ({ functionCode: b.fc, address: b.addr, registers: hexToRegisters(b.regs) })),
      );
      if (missing.length > 0) problems.push(`${device.sn}: missing ${missing.join(', ')}`);
      if (values.serialNumber !== device.sn) problems.push(`${device.sn}: serial register says ${values.serialNumber}`);
    }
  }
  return problems;
}

/** Decode one device of a data message. */
export function decodeDevice(body: unknown, sn: string) {
  const device = (
    body as { devices: { sn: string; protocol: string; blocks: { fc: number; addr: number; regs: string }[] }[] }
  ).devices.find((d) => d.sn === sn);
  if (!device) return undefined;
  return protocolPlan(device.protocol)!.decode(
    device.blocks.map((b) => ({ functionCode: b.fc, address: b.addr, registers: hexToRegisters(b.regs) })),
  );
}
