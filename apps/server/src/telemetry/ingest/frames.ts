/**
 * The edge: a gateway message → validated, decoded device readings (synchronous, no store).
 * Refused here: oversized, not JSON, schema, time outside [now − retention, now + 5 min],
 * unknown or gateway protocol, register blocks outside the device's map.
 * Everything that can be judged from the message alone is judged here; what needs the store
 * (gateway known, device owner, protocol of a known device) is judged by the batch writer.
 */
import { type DataMessage, DataPayload, type GatewayEventMessage, GatewayEventPayload, mqttLimits } from '@sunfleet/contracts';
import { protocolPlan, type RegisterBlock } from '@sunfleet/protocols';
import { Compile } from 'typebox/compile';
import type { DeviceKind } from '../../db/schema.ts';
import type { BadFrameSink } from './bad-frames.ts';
import { type FrameFacts, frameFacts, kinds } from './kinds.ts';
import { latestValuesJson } from './latest-values.ts';

/** One device's decoded frame, waiting for the batch writer (plain data: it may come from a worker). */
export interface DeviceReading extends FrameFacts {
  gatewaySn: string;
  sn: string;
  /** Protocol id (`protocolPlan(protocol)` gives its bit meanings). */
  protocol: string;
  kind: DeviceKind;
  unit: number | null;
  /** When the device was read (buffered frames keep their original time). */
  ts: number;
  receivedAt: number;
  faults: string[];
  /** device_latest.values of this frame. */
  latest: string;
  /** JSON [[fc, addr, hex], …]: the register blocks as received. */
  raw: string;
}

export interface GatewayEventItem {
  gatewaySn: string;
  receivedAt: number;
  event: GatewayEventMessage;
}

const checkData = Compile(DataPayload);
const checkEvent = Compile(GatewayEventPayload);

function parse(gatewaySn: string, payload: Buffer, bad: BadFrameSink): unknown {
  if (payload.length > mqttLimits.maxPayloadBytes) {
    bad.add('oversized', gatewaySn, `${payload.length} bytes`);
    return undefined;
  }
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    bad.add('malformedJson', gatewaySn);
    return undefined;
  }
}

/** Why a frame time is refused (ahead of the server clock, or older than the retention window), or null. */
function timeProblem(ts: number, receivedAt: number): 'futureTimestamp' | 'staleTimestamp' | null {
  if (ts > receivedAt + mqttLimits.maxFutureMs) return 'futureTimestamp';
  if (ts < receivedAt - mqttLimits.maxAgeMs) return 'staleTimestamp';
  return null;
}

/**
 * A string built by concatenation is a tree of pieces (and keeps the parsed message's strings
 * alive); one that lives through a batch is made one flat string at once. Converting it to a
 * number is what makes V8 flatten it (the trick of the `flatstr` package); measured: the young
 * generation's copying of these trees cost more than decoding the frames.
 */
function flat(s: string): string {
  void Number(s);
  return s;
}

// Register blocks are decoded into reused scratch space: the decoder copies the words into its
// own tables at once, and a fresh array (and a string per register) per block was a large share
// of ingest's garbage.
const HEX_DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_DIGIT['0123456789abcdef'.charCodeAt(i)] = i;
  HEX_DIGIT['0123456789ABCDEF'.charCodeAt(i)] = i;
}
const scratchWords = new Uint16Array(mqttLimits.maxBlocksPerDevice * mqttLimits.maxRegistersPerBlock);
const scratchBlocks: RegisterBlock[] = [];

/** The blocks of a device frame, valid until the next call (hex already checked by the schema). */
function scratchRegisterBlocks(blocks: DataMessage['devices'][number]['blocks']): RegisterBlock[] {
  scratchBlocks.length = 0;
  let at = 0;
  for (const b of blocks) {
    const hex = b.regs;
    const count = hex.length >> 2;
    for (let i = 0, c = 0; i < count; i++, c += 4) {
      scratchWords[at + i] =
        (HEX_DIGIT[hex.charCodeAt(c)]! << 12) |
        (HEX_DIGIT[hex.charCodeAt(c + 1)]! << 8) |
        (HEX_DIGIT[hex.charCodeAt(c + 2)]! << 4) |
        HEX_DIGIT[hex.charCodeAt(c + 3)]!;
    }
    // A typed-array view reads like the number[] the decoder takes (index and length only).
    scratchBlocks.push({
      functionCode: b.fc,
      address: b.addr,
      registers: scratchWords.subarray(at, at + count) as unknown as number[],
    });
    at += count;
  }
  return scratchBlocks;
}

/** Parse, validate and decode an `up/data` message; pushes the good device frames to `out`. */
export function readDataMessage(
  gatewaySn: string,
  payload: Buffer,
  receivedAt: number,
  bad: BadFrameSink,
  out: DeviceReading[],
): void {
  const message = parse(gatewaySn, payload, bad);
  if (message === undefined) return;
  if (!checkData.Check(message)) {
    bad.add('schema', gatewaySn, 'data payload does not match the schema');
    return;
  }
  const data = message as DataMessage;
  const frameTime = timeProblem(data.ts, receivedAt);
  if (frameTime !== null) {
    bad.add(frameTime, gatewaySn, `frame time ${new Date(data.ts).toISOString()}`);
    return;
  }
  for (const device of data.devices) {
    const plan = protocolPlan(device.protocol);
    if (!plan) {
      bad.add('unknownProtocol', gatewaySn, `device ${device.sn}: protocol ${device.protocol}`);
      continue;
    }
    const kind = plan.definition.kind;
    if (kind === 'gateway') {
      bad.add('wrongProtocol', gatewaySn, `device ${device.sn}: ${device.protocol} is a gateway protocol`);
      continue;
    }
    const ts = device.ts ?? data.ts;
    const deviceTime = timeProblem(ts, receivedAt);
    if (deviceTime !== null) {
      bad.add(deviceTime, gatewaySn, `device ${device.sn}: time ${new Date(ts).toISOString()}`);
      continue;
    }
    let raw = '[';
    for (const b of device.blocks) {
      // fc and addr are integers and regs is hex (checked by the schema): no escaping needed.
      raw += `${raw.length > 1 ? ',' : ''}[${b.fc},${b.addr},"${b.regs}"]`;
    }
    const blocks = scratchRegisterBlocks(device.blocks);
    const unmapped = plan.unmappedBlock(blocks);
    if (unmapped >= 0) {
      const b = device.blocks[unmapped]!;
      const detail = `device ${device.sn}: fc ${b.fc} registers ${b.addr}..${b.addr + b.regs.length / 4 - 1} are not in ${device.protocol}`;
      bad.add('unmappedRegisters', gatewaySn, detail);
      continue;
    }
    const { values, faults } = plan.decode(blocks);
    const facts = frameFacts(kind, values);
    out.push({
      gatewaySn,
      sn: device.sn,
      protocol: device.protocol,
      kind,
      unit: device.unit ?? null,
      ts,
      receivedAt,
      ...facts,
      faults,
      latest: flat(latestValuesJson(plan, values, kinds[kind].absentKeys(values))),
      raw: flat(`${raw}]`),
    });
  }
}

/** Parse and validate an `up/event` message. */
export function readEventMessage(
  gatewaySn: string,
  payload: Buffer,
  receivedAt: number,
  bad: BadFrameSink,
): GatewayEventItem | null {
  const message = parse(gatewaySn, payload, bad);
  if (message === undefined) return null;
  if (!checkEvent.Check(message)) {
    bad.add('schema', gatewaySn, 'event payload does not match the schema');
    return null;
  }
  const event = message as GatewayEventMessage;
  const eventTime = timeProblem(event.ts, receivedAt);
  if (eventTime !== null) {
    bad.add(eventTime, gatewaySn, `event time ${new Date(event.ts).toISOString()}`);
    return null;
  }
  return { gatewaySn, receivedAt, event };
}
