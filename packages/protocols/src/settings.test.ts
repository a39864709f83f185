// Every setting group of every shipped protocol, validated at its edges and one step past
// them. The cases come from the definitions, so a field added later is tested too.
import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from './definition.ts';
import { protocolPlan, protocols } from './definitions/index.ts';
import type { RegisterWrite } from './encode.ts';
import {
  decodeSettingGroup,
  powerSwitchValues,
  settingGroupFields,
  settingGroupReads,
  stepOf,
  supportedSettings,
  validateSettingValues,
} from './settings.ts';

const withSettings = Object.values(protocols).filter((d) => d.settingFamily);

/** What a device holds after these writes, decoded through the protocol. */
function readBack(protocolId: string, group: string, writes: readonly RegisterWrite[]) {
  const blocks = writes.map((w) => ({ functionCode: 3, address: w.address, registers: w.registers }));
  return decodeSettingGroup(protocolId, group, blocks)!;
}

/** Values a writable field must accept, and values (with the problem) it must refuse. */
function edgeCases(field: FieldDefinition): { good: number[]; bad: [unknown, string][] } {
  if (field.enum) {
    const options = Object.keys(field.enum).map(Number);
    const outside = Math.max(...options) + 1;
    return {
      good: options,
      bad: [
        [outside, 'notInEnum'],
        [-1, 'notInEnum'],
        [options[0]! + 0.5, 'notInEnum'],
      ],
    };
  }
  const step = stepOf(field)!;
  const min = field.min!;
  const max = field.max!;
  const bad: [unknown, string][] = [
    [min - step, 'outOfRange'],
    [max + step, 'outOfRange'],
    ['1', 'notANumber'],
    [Number.NaN, 'notANumber'],
    [null, 'notANumber'],
  ];
  if (max - min >= step) bad.push([min + step / 2, 'offStep']);
  return { good: [min, max, min + step], bad };
}

describe('setting groups of the shipped protocols', () => {
  for (const definition of withSettings) {
    const id = definition.id;
    const { groups } = supportedSettings(id)!;
    for (const group of groups) {
      describe(`${id} ${group}`, () => {
        const fields = settingGroupFields(id, group)!;

        it('gives every writable number its limits and every field a name', () => {
          for (const f of fields) {
            expect(f.name.en && f.name.es, f.key).toBeTruthy();
            if (f.access === 'rw' && !f.enum) {
              expect(f.min, f.key).toBeTypeOf('number');
              expect(f.max, f.key).toBeTypeOf('number');
              expect(stepOf(f), f.key).toBeGreaterThan(0);
            }
          }
        });

        it('accepts each field at its edges and writes what reads back the same', () => {
          for (const f of fields.filter((x) => x.access === 'rw')) {
            for (const value of edgeCases(f).good) {
              const result = validateSettingValues(id, group, { [f.key]: value });
              expect(result.ok, `${f.key} = ${value}`).toBe(true);
              if (!result.ok) continue;
              expect(result.writes.length).toBeGreaterThan(0);
              expect(readBack(id, group, result.writes)[f.key], `${f.key} = ${value}`).toBeCloseTo(value, 6);
            }
          }
        });

        it('refuses each field one step past its edges, off its step and out of its options, naming it', () => {
          for (const f of fields.filter((x) => x.access === 'rw')) {
            for (const [value, code] of edgeCases(f).bad) {
              const result = validateSettingValues(id, group, { [f.key]: value });
              expect(result.ok, `${f.key} = ${String(value)}`).toBe(false);
              if (result.ok) continue;
              expect(result.problems, `${f.key} = ${String(value)}`).toHaveLength(1);
              const [problem] = result.problems;
              expect(problem!.field).toBe(f.key);
              expect(problem!.code, `${f.key} = ${String(value)}`).toBe(code);
              expect(problem!.message).toContain(f.key);
              if (code === 'outOfRange' || code === 'offStep') {
                expect(problem!.message).toContain(`${f.min}..${f.max}`);
                expect(problem).toMatchObject({ min: f.min, max: f.max, step: stepOf(f) });
              }
              if (code === 'notInEnum') expect(problem!.options).toEqual(Object.keys(f.enum!).map(Number));
            }
          }
        });

        it('refuses read-only fields and keys of other groups', () => {
          for (const f of fields.filter((x) => x.access !== 'rw')) {
            const result = validateSettingValues(id, group, { [f.key]: 1 });
            expect(result).toMatchObject({ ok: false, problems: [{ field: f.key, code: 'readOnly' }] });
          }
          const foreign = definition.fields.find((f) => f.group !== `setting:${group}`)!;
          expect(validateSettingValues(id, group, { [foreign.key]: 1 })).toMatchObject({
            ok: false,
            problems: [{ field: foreign.key, code: 'unknownField' }],
          });
        });

        it('reads the registers of the group and decodes them into its values', () => {
          const reads = settingGroupReads(id, group)!;
          const plan = protocolPlan(id)!;
          for (const f of fields) {
            const wire = f.address - (f.base ?? definition.base ?? 0);
            const covered = reads.some(
              (r) => r.functionCode === f.functionCode && wire >= r.address && wire + f.count <= r.address + r.count,
            );
            expect(covered, f.key).toBe(true);
          }
          const values = Object.fromEntries(
            fields.map((f) => [f.key, f.enum ? Number(Object.keys(f.enum).at(-1)) : (f.max ?? 1)]),
          );
          const blocks = plan.encode(values, { groups: [`setting:${group}`] });
          expect(decodeSettingGroup(id, group, blocks)).toEqual(values);
        });
      });
    }
  }

  it('has read-only setting fields, so the read-only refusal above is exercised', () => {
    const readOnly = withSettings.flatMap((d) => d.fields.filter((f) => f.group.startsWith('setting:') && f.access !== 'rw'));
    expect(readOnly.length).toBeGreaterThan(0);
  });

  it('writes nothing when any value of the group is bad, and lists every bad one', () => {
    const result = validateSettingValues('sunfleet-string-3p', 'activeCtrl', {
      activePowerLimit: 50,
      activePowerRamp: 301,
      activePowerWindow: 1.5,
      nope: 1,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.field, p.code])).toEqual([
      ['activePowerRamp', 'outOfRange'],
      ['activePowerWindow', 'offStep'],
      ['nope', 'unknownField'],
    ]);
    expect(result.problems[0]!.message).toBe('activePowerRamp must be within 0..300 in steps of 1');
    expect(result).not.toHaveProperty('writes');
  });

  it('refuses an empty write', () => {
    expect(validateSettingValues('sunfleet-micro', 'runPara', {})).toMatchObject({ ok: false, problems: [{ code: 'noValues' }] });
  });

  it('turns a good group into merged register writes', () => {
    const result = validateSettingValues('sunfleet-string-3p', 'activeCtrl', {
      activePowerLimit: 42.5,
      activePowerLimitEnabled: 1,
    });
    expect(result).toEqual({
      ok: true,
      values: { activePowerLimit: 42.5, activePowerLimitEnabled: 1 },
      writes: [{ functionCode: 16, address: 20, registers: [425, 1] }],
    });
  });
});

describe('families and support', () => {
  it('names the family and its groups of every inverter, none for other devices or unknown protocols', () => {
    expect(supportedSettings('sunfleet-micro')).toEqual({ family: 'dyGrid', groups: ['runPara', 'protectPara', 'eeprom'] });
    expect(supportedSettings('sunfleet-uneet-unknown')).toBeNull();
    for (const definition of Object.values(protocols)) {
      if (definition.kind === 'inverter') expect(supportedSettings(definition.id)?.family, definition.id).toBeTruthy();
      else expect(supportedSettings(definition.id), definition.id).toBeNull();
    }
    expect(new Set(withSettings.map((d) => d.settingFamily))).toEqual(
      new Set(['mt', 'gy', 'dyStore', 'dyStore3p', 'asw', 'uneet', 'dyGrid']),
    );
  });

  it('reads several groups together in fewer reads than one by one, every field of each covered and decoded', () => {
    const id = 'sunfleet-micro';
    const { groups } = supportedSettings(id)!;
    const together = settingGroupReads(id, groups)!;
    const apart = groups.flatMap((g) => settingGroupReads(id, g)!);
    expect(together.length).toBeLessThan(apart.length);
    const plan = protocolPlan(id)!;
    const values = Object.fromEntries(
      groups.flatMap((g) => settingGroupFields(id, g)!).map((f) => [f.key, f.enum ? Number(Object.keys(f.enum)[0]) : f.min!]),
    );
    const encoded = plan.encode(values, { groups: groups.map((g) => `setting:${g}` as const) });
    const blocks = together.map((r) => ({
      functionCode: r.functionCode,
      address: r.address,
      registers: Array.from({ length: r.count }, (_, k) => {
        const block = encoded.find((b) => b.address <= r.address + k && r.address + k < b.address + b.registers.length);
        return block ? block.registers[r.address + k - block.address]! : 0;
      }),
    }));
    for (const g of groups) {
      const decoded = decodeSettingGroup(id, g, blocks)!;
      for (const f of settingGroupFields(id, g)!) expect(decoded[f.key], f.key).toBe(values[f.key]);
    }
    expect(settingGroupReads(id, [...groups, 'batt'])).toBeNull();
    expect(settingGroupReads(id, [])).toBeNull();
  });

  it('knows no group outside the definition', () => {
    expect(settingGroupFields('sunfleet-micro', 'batt')).toBeNull();
    expect(settingGroupReads('sunfleet-micro', 'batt')).toBeNull();
    expect(decodeSettingGroup('sunfleet-micro', 'batt', [])).toBeNull();
    expect(() => validateSettingValues('sunfleet-micro', 'batt', { x: 1 })).toThrow('has no setting group "batt"');
  });

  it('gives every inverter a writable power switch and active power limit', () => {
    for (const definition of withSettings) {
      const plan = protocolPlan(definition.id)!;
      const power = plan.field('powerSwitch');
      const limit = plan.field('activePowerLimit');
      expect(power?.access, definition.id).toBe('rw');
      expect(power?.group.startsWith('setting:'), definition.id).toBe(true);
      expect(limit?.access, definition.id).toBe('rw');
      expect(limit?.group.startsWith('setting:'), definition.id).toBe(true);
      const values = powerSwitchValues(definition.id)!;
      expect(power!.enum![values.on]!.en).toBe('On');
      expect(power!.enum![values.off]!.en).toBe('Off');
    }
    expect(powerSwitchValues('sunfleet-hybrid-1p')).toEqual({ on: 1, off: 2 });
    expect(powerSwitchValues('sunfleet-string-3p')).toEqual({ on: 1, off: 0 });
    expect(powerSwitchValues('sunfleet-meter-3p')).toBeNull();
  });
});
