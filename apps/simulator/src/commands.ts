// What a gateway does with a command from the server: Modbus reads and writes on one of its
// devices' register banks, and a restart. Anything else is refused as unsupported for now.
import {
  type CommandMessage,
  hexToRegisters,
  mqttLimits,
  PROTOCOL_VERSION,
  type RegisterBlockMessage,
  type ReplyMessage,
  registersToHex,
} from '@sunfleet/contracts';
import type { VirtualDevice } from './devices/device.ts';
import type { Plant } from './plant.ts';

export interface CommandOutcome {
  reply: Omit<ReplyMessage, 'ts'>;
  /** The gateway should reboot once the reply is out. */
  restart?: boolean;
}

const ID = /^[A-Za-z0-9-]{8,64}$/;
const HEX = /^([0-9A-Fa-f]{4})+$/;

/** Parse a command payload; null when it is not one (no id to answer to). */
export function parseCommand(payload: Buffer | string): CommandMessage | null {
  try {
    const value = JSON.parse(payload.toString()) as Partial<CommandMessage> | null;
    if (!value || value.v !== PROTOCOL_VERSION || typeof value.id !== 'string' || !ID.test(value.id)) return null;
    if (typeof value.type !== 'string') return null;
    return value as CommandMessage;
  } catch {
    return null;
  }
}

export function executeCommand(plant: Plant, command: CommandMessage): CommandOutcome {
  const base = { v: PROTOCOL_VERSION, id: command.id } as const;
  const fail = (error: string): CommandOutcome => ({ reply: { ...base, status: 'error', error } });
  switch (command.type) {
    case 'read': {
      const device = findDevice(plant, command);
      if (typeof device === 'string') return fail(device);
      const blocks: RegisterBlockMessage[] = [];
      for (const read of command.reads ?? []) {
        if ((read.fc !== 3 && read.fc !== 4) || read.count < 1 || read.count > mqttLimits.maxRegistersPerBlock) {
          return fail(`illegal function or count at ${read.addr}`);
        }
        const registers = device.bank.read(read.fc, read.addr, read.count);
        if (!registers) return fail(`illegal data address ${read.fc}:${read.addr}+${read.count}`);
        blocks.push({ fc: read.fc, addr: read.addr, regs: registersToHex(registers) });
      }
      if (blocks.length === 0) return fail('nothing to read');
      return { reply: { ...base, status: 'ok', blocks } };
    }
    case 'write': {
      const device = findDevice(plant, command);
      if (typeof device === 'string') return fail(device);
      const writes = command.writes ?? [];
      if (writes.length === 0) return fail('nothing to write');
      for (const write of writes) {
        if (typeof write.regs !== 'string' || !HEX.test(write.regs)) return fail(`bad registers at ${write.addr}`);
        const count = write.regs.length / 4;
        if (!(write.fc === 16 || (write.fc === 6 && count === 1)) || count > 123)
          return fail(`illegal function at ${write.addr}`);
      }
      for (const write of writes) {
        const error = device.bank.write(write.addr, hexToRegisters(write.regs));
        if (error) {
          device.settingsWritten();
          return fail(error);
        }
      }
      device.settingsWritten();
      return { reply: { ...base, status: 'ok' } };
    }
    case 'restart':
      return { reply: { ...base, status: 'ok' }, restart: true };
    default:
      return fail(`unsupported command "${String(command.type)}"`);
  }
}

function findDevice(plant: Plant, command: CommandMessage): VirtualDevice | string {
  const device =
    command.device !== undefined
      ? plant.device(command.device)
      : command.unit !== undefined
        ? plant.devices.find((d) => d.unit === command.unit)
        : undefined;
  if (!device) return 'unknown device';
  if (device.offBus.active) return 'device not responding';
  return device;
}
