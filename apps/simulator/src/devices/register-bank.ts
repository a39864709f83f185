// A device's Modbus registers as the gateway sees them on the bus: input registers hold the
// latest reading (re-encoded at every reading), holding registers hold the settings, which
// the server can read and write remotely. Reads outside the map and writes to anything but
// a writable field fail, as a real device answers with an "illegal data address" exception;
// a write that would leave a field outside its range, step or options fails whole ("illegal
// data value", naming the field) and changes nothing.
import {
  type FieldDefinition,
  type FieldValue,
  type InputValue,
  type ProtocolPlan,
  type RegisterBlock,
  settingValueProblem,
  wireAddress,
} from '@sunfleet/protocols';

export class RegisterBank {
  private readings: RegisterBlock[] = [];
  private readonly holding = new Map<number, number>();
  private readonly writable = new Set<number>();
  /** The writable fields with their first wire register. */
  private readonly writableFields: { field: FieldDefinition; wire: number }[] = [];
  private readonly readable: { fc: number; from: number; to: number }[];
  private readonly settingGroups: `setting:${string}`[];
  /** Called before holding registers are read (a device refreshes its clock registers). */
  beforeSettingsRead: (() => void) | undefined;

  constructor(
    readonly plan: ProtocolPlan,
    settings: Readonly<Record<string, InputValue>>,
  ) {
    this.settingGroups = plan.settingGroups().map((g) => `setting:${g}` as const);
    this.readable = plan.readRanges().map((r) => ({ fc: r.functionCode, from: r.address, to: r.address + r.count }));
    for (const field of plan.definition.fields) {
      if (field.access !== 'rw') continue;
      const wire = wireAddress(plan.definition, field);
      this.writableFields.push({ field, wire });
      for (let k = 0; k < (field.count ?? 1); k++) this.writable.add(wire + k);
    }
    this.storeSettings(settings);
  }

  /** Replace the input registers with a new reading. */
  setReadings(blocks: RegisterBlock[]): void {
    this.readings = blocks;
  }

  /** Overwrite settings from values (the device's own doing, e.g. its clock), not a remote write. */
  storeSettings(values: Readonly<Record<string, InputValue>>): void {
    if (this.settingGroups.length === 0) return;
    const fields = this.plan.definition.fields;
    const groups = this.settingGroups.filter((g) => fields.some((f) => f.group === g && f.key in values));
    if (groups.length === 0) return;
    const complete = fields.every((f) => !groups.includes(f.group as `setting:${string}`) || f.key in values);
    const merged = complete ? values : { ...this.settings(), ...values };
    for (const block of this.plan.encode(merged, { groups })) {
      for (let k = 0; k < block.registers.length; k++) this.holding.set(block.address + k, block.registers[k]!);
    }
  }

  /** Modbus read; null when any register is outside the device's map. */
  read(functionCode: number, address: number, count: number): number[] | null {
    const end = address + count;
    if (!this.readable.some((r) => r.fc === functionCode && address >= r.from && end <= r.to)) return null;
    const out = new Array<number>(count).fill(0);
    if (functionCode === 3) {
      this.beforeSettingsRead?.();
      for (let k = 0; k < count; k++) out[k] = this.holding.get(address + k) ?? 0;
      return out;
    }
    for (const block of this.readings) {
      if (block.functionCode !== functionCode) continue;
      const from = Math.max(address, block.address);
      const to = Math.min(end, block.address + block.registers.length);
      for (let a = from; a < to; a++) out[a - address] = block.registers[a - block.address]!;
    }
    return out;
  }

  /** Modbus write (function 6 or 16) to holding registers; an error text when refused. */
  write(address: number, registers: readonly number[]): string | null {
    for (let k = 0; k < registers.length; k++) {
      if (!this.writable.has(address + k)) return `illegal data address ${address + k}`;
      const value = registers[k]!;
      if (!Number.isInteger(value) || value < 0 || value > 0xffff) return `illegal data value at ${address + k}`;
    }
    const end = address + registers.length;
    const touched = this.writableFields.filter(({ field, wire }) => wire < end && wire + field.count > address);
    const word = (a: number) => (a >= address && a < end ? registers[a - address]! : (this.holding.get(a) ?? 0));
    const blocks = touched.map(({ field, wire }) => ({
      functionCode: 3,
      address: wire,
      registers: Array.from({ length: field.count }, (_, k) => word(wire + k)),
    }));
    const { values } = this.plan.decode(blocks);
    for (const { field } of touched) {
      const problem = settingValueProblem(field, values[field.key] ?? null);
      if (problem) return `illegal data value: ${problem.message}`;
    }
    for (let k = 0; k < registers.length; k++) this.holding.set(address + k, registers[k]!);
    return null;
  }

  /** The settings as values, decoded from the holding registers. */
  settings(): Record<string, FieldValue> {
    if (this.holding.size === 0) return {};
    const blocks = this.plan.readRanges({ groups: this.settingGroups }).map((r) => ({
      functionCode: r.functionCode,
      address: r.address,
      registers: Array.from({ length: r.count }, (_, k) => this.holding.get(r.address + k) ?? 0),
    }));
    const { values } = this.plan.decode(blocks);
    const out: Record<string, FieldValue> = {};
    for (const field of this.plan.definition.fields)
      if (field.group.startsWith('setting:')) out[field.key] = values[field.key] ?? null;
    return out;
  }
}
