// The real SMA Sunny Boy 3.6 dumps decoded through the shared SunSpec model JSONs, with the
// model chain discovered from the dump itself.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateDefinition } from '../definition.ts';
import { compareExpected } from '../fixtures/expected.ts';
import { inputBlocks } from '../fixtures/modbus-schema.ts';
import { readSharedJson, readYamlAsText, sharedDataDir } from '../fixtures/shared-data.ts';
import { compile } from '../plan.ts';
import {
  blockReader,
  fromSunSpecModel,
  type SunSpecModel,
  sunspecDeviceDefinition,
  sunspecModelFields,
  walkSunSpecChain,
} from './sunspec.ts';

interface Dump {
  tests: { input: { firstAddress: string; rawValues: string }[]; blocks: { id: string; expected: Record<string, string[]> }[] }[];
}

const modelIds = fs
  .readdirSync(path.join(sharedDataDir(), 'sunspec-models'))
  .map((name) => /^model_(\d+)\.json$/.exec(name)?.[1])
  .filter((id): id is string => id !== undefined)
  .map(Number);
const model = (id: number) => readSharedJson('sunspec-models', `model_${id}.json`) as SunSpecModel;

/** "Module_0_DCA" (the dump's name) → "module1.DCA" (ours). */
const ourKey = (name: string) =>
  name.replace(/^(Module|Curve)_(\d+)_/, (_, group: string, i: string) => `${group.toLowerCase()}${Number(i) + 1}.`);

for (const file of ['SunSpec2025.yaml', 'SunSpec2025Night.yaml']) {
  describe(`SMA Sunny Boy 3.6 ${file}`, () => {
    const dump = readYamlAsText(path.join(sharedDataDir(), 'modbus-vectors', file)) as Dump;
    const test = dump.tests[0]!;
    const blocks = inputBlocks(test.input);
    const chain = walkSunSpecChain(blockReader(blocks));

    it('walks the model chain from the SunS marker', () => {
      expect(chain.map((m) => m.id)).toEqual([1, 11, 12, 101, 120, 121, 122, 123, 124, 126, 127, 128, 131, 132, 160, 129, 130]);
      expect(chain.find((m) => m.id === 101)).toEqual({ id: 101, address: 40185, length: 50 });
    });

    const known = chain.filter((location) => modelIds.includes(location.id));
    it('has shared JSON for models 1, 101, 124 and 160 of the chain', () => {
      expect(known.map((m) => m.id)).toEqual([1, 101, 124, 160]);
    });

    for (const location of known) {
      it(`decodes model ${location.id} with the values the dump lists`, () => {
        const definition = fromSunSpecModel(model(location.id), location.address, { length: location.length });
        expect(validateDefinition(definition)).toEqual([]);
        const plan = compile(definition);
        const frame = plan.decode(blocks);
        const expected = test.blocks.find((b) => b.id === `Model ${location.id}`)!.expected;
        const failures: string[] = [];
        let checked = 0;
        for (const [name, want] of Object.entries(expected)) {
          const key = ourKey(name);
          if (!plan.field(key)) {
            // Only padding registers have no field of their own.
            if (!/Pad$/.test(name)) failures.push(`${name}: no field ${key}`);
            continue;
          }
          const verdict = compareExpected(plan, key, frame.values[key] ?? null, frame.faults, want ?? []);
          if (verdict !== true) failures.push(`${name}: ${verdict}`);
          checked++;
        }
        expect(failures).toEqual([]);
        expect(checked).toBeGreaterThan(5);
        expect(frame.missing).toEqual([]);
      });
    }

    it('decodes the whole device through one combined definition', () => {
      const definition = sunspecDeviceDefinition(
        'sma-sb36',
        known.map((location) => ({ model: model(location.id), location })),
      );
      expect(validateDefinition(definition)).toEqual([]);
      const { values } = compile(definition).decode(blocks);
      expect(values['m1.Mn']).toBe('SMA');
      expect(values['m1.Md']).toBe('SB3.6-1AV-41');
      expect(values['m1.SN']).toBe('3005067415');
      expect(values['m160.N']).toBe(6);
      expect(values['m124.WChaMax']).toBeNull();
      if (file === 'SunSpec2025.yaml') {
        expect(values['m101.W']).toBe(3680);
        expect(values['m101.Hz']).toBe(49.99);
        expect(values['m101.PhVphA']).toBe(244);
        expect(values['m101.WH']).toBe(30388530);
        expect(values['m160.module1.DCV']).toBe(301);
        expect(values['m160.module1.DCA']).toBe(7.3);
      }
    });
  });
}

describe('SunSpec models of the shared data', () => {
  for (const id of modelIds) {
    it(`model ${id} converts to a valid definition that round-trips`, () => {
      const json = model(id);
      const definition = fromSunSpecModel(json, 40002, { length: 200 });
      expect(validateDefinition(definition)).toEqual([]);
      const plan = compile(definition);
      const values: Record<string, number | string | null> = {};
      for (const field of definition.fields) {
        if (field.dataType === 'string') values[field.key] = 'X1';
        else if (field.key.endsWith('_SF')) values[field.key] = -1;
        else if (field.dataType === 'u16' || field.dataType === 'u32' || field.dataType === 'enum')
          values[field.key] = field.enum ? Number(Object.keys(field.enum)[0]) : 12;
      }
      const decoded = plan.decode(plan.encode(values)).values;
      for (const [key, value] of Object.entries(values)) expect(decoded[key], key).toBe(value);
    });
  }

  it('sizes a repeating group from the model length', () => {
    const fields = sunspecModelFields(model(160), 40621, { length: 128 });
    expect(fields.filter((f) => f.key.endsWith('.DCA')).map((f) => f.key)).toEqual([
      'module1.DCA',
      'module2.DCA',
      'module3.DCA',
      'module4.DCA',
      'module5.DCA',
      'module6.DCA',
    ]);
    expect(fields.find((f) => f.key === 'module1.DCA')).toMatchObject({ address: 40640, scaleFactorField: 'DCA_SF' });
  });

  it('folds a constant scale factor into the scale', () => {
    const fields = sunspecModelFields(model(307), 0);
    expect(fields.find((f) => f.key === 'TmpAmb')).toMatchObject({ scale: 0.1 });
  });
});
