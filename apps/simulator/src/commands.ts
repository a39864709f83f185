// What a gateway does with a command from the server: Modbus reads and writes on one of its
// devices' register banks; power on and off through the device's power switch register (its
// definition's `powerSwitch` field); a debug code answered with a diagnostic text; a restart;
// and a switch of one of its own settings. Anything else is refused as unsupported.
//
// Each command id is answered once: the gateway remembers its recent replies (`ReplyMemory`) and
// answers a repeated id (the server resends what it has no answer to) from that memory without
// running the command again.
import {
  type CommandMessage,
  DEBUG_TEXT_MAX,
  type GatewaySettingName,
  gatewaySettings,
  hexToRegisters,
  mqttLimits,
  PROTOCOL_VERSION,
  type RegisterBlockMessage,
  type ReplyMessage,
  registersToHex,
} from '@sunfleet/contracts';
import { powerSwitchValues } from '@sunfleet/protocols';
import type { VirtualDevice } from './devices/device.ts';
import type { Plant } from './plant.ts';

export interface CommandOutcome {
  reply: Omit<ReplyMessage, 'ts'>;
  /** The gateway should reboot once the reply is out. */
  restart?: boolean;
}

/** What a command may ask of the gateway itself. */
export interface GatewayControl {
  /** The gateway's own diagnostic text for a debug code. */
  diagnostics(code: string): string;
  /** Switch one of its settings; an error text when it cannot. */
  setSetting(name: GatewaySettingName, value: number): string | null;
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

/** The replies a gateway has sent, by command id: the most recent `size`, oldest forgotten first. */
export class ReplyMemory {
  readonly #replies = new Map<string, CommandOutcome>();
  /** Commands answered from memory instead of being run again. */
  repeats = 0;
  constructor(private readonly size = 1000) {}

  /** The outcome remembered for `id`, or `run()`'s (then remembered). */
  answer(id: string, run: () => CommandOutcome): { outcome: CommandOutcome; repeated: boolean } {
    const known = this.#replies.get(id);
    if (known) {
      this.repeats++;
      // A repeated restart is answered, not run again.
      return { outcome: { reply: known.reply }, repeated: true };
    }
    const outcome = run();
    this.#replies.set(id, outcome);
    if (this.#replies.size > this.size) this.#replies.delete(this.#replies.keys().next().value!);
    return { outcome, repeated: false };
  }

  /** Remember a later reply for `id` (a long command's final answer), for a repeated id. */
  remember(id: string, reply: Omit<ReplyMessage, 'ts'>): void {
    if (this.#replies.has(id)) this.#replies.set(id, { reply });
  }

  has(id: string): boolean {
    return this.#replies.has(id);
  }
}

export function executeCommand(plant: Plant, command: CommandMessage, gateway?: GatewayControl): CommandOutcome {
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
    case 'boot':
    case 'shutdown': {
      const device = findDevice(plant, command);
      if (typeof device === 'string') return fail(device);
      const error = setPower(device, command.type === 'boot');
      return error ? fail(error) : { reply: { ...base, status: 'ok' } };
    }
    case 'debug': {
      const code = (command.text ?? '').trim();
      if (!code) return fail('no debug code');
      if (command.device === undefined && command.unit === undefined) {
        if (!gateway) return fail('unsupported command "debug"');
        return { reply: { ...base, status: 'ok', text: clip(gateway.diagnostics(code)) } };
      }
      const device = findDevice(plant, command);
      if (typeof device === 'string') return fail(device);
      return { reply: { ...base, status: 'ok', text: clip(deviceDiagnostics(device, code)) } };
    }
    case 'settings': {
      const setting = command.setting;
      if (!setting || !(setting.name in gatewaySettings)) return fail('unknown setting');
      const range = gatewaySettings[setting.name];
      if (!Number.isInteger(setting.value) || setting.value < range.min || setting.value > range.max)
        return fail(`value out of range ${range.min}..${range.max}`);
      if (!gateway) return fail('unsupported command "settings"');
      const error = gateway.setSetting(setting.name, setting.value);
      return error ? fail(error) : { reply: { ...base, status: 'ok' } };
    }
    case 'restart':
      return { reply: { ...base, status: 'ok' }, restart: true };
    default:
      return fail(`unsupported command "${String(command.type)}"`);
  }
}

/** Write the device's power switch register; an error text when it has none. */
function setPower(device: VirtualDevice, on: boolean): string | null {
  const values = powerSwitchValues(device.plan.definition.id);
  if (!values || !device.plan.field('powerSwitch')) return 'device has no power switch';
  // Each protocol has its own on and off values (Deye: 1 on, 2 off; the others 1 on, 0 off).
  const write = device.plan.encodeField('powerSwitch', on ? values.on : values.off);
  const error = device.bank.write(write.address, write.registers);
  device.settingsWritten();
  return error;
}

function deviceDiagnostics(device: VirtualDevice, code: string): string {
  const settings = device.bank.settings();
  const lines = [
    `debug ${code}`,
    `device ${device.sn} (${device.protocol}, unit ${device.unit})`,
    `power switch: ${powerState(device, settings.powerSwitch)}`,
    `active faults: ${device.faults.active.length === 0 ? 'none' : device.faults.active.join(', ')}`,
  ];
  return lines.join('\n');
}

function powerState(device: VirtualDevice, value: number | string | null | undefined): string {
  const values = powerSwitchValues(device.plan.definition.id);
  if (!values || value === undefined || value === null) return 'none';
  return value === values.off ? 'off' : 'on';
}

function clip(text: string): string {
  return text.length <= DEBUG_TEXT_MAX ? text : text.slice(0, DEBUG_TEXT_MAX);
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
