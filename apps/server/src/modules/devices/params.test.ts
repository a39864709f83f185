/**
 * The chart parameters' column map must say what ingest really writes into each samples column
 * (test/ingest.ts `storedSample`): for every shipped protocol, a decoded frame's values read through
 * the parameter equal the column ingest computes from the same frame, and every column the
 * protocol fills has its parameter. Signed power reads in the one convention (register × sign)
 * from either.
 */
import { type InputValue, protocolPlan, protocols } from '@sunfleet/protocols';
import { describe, expect, it } from 'vitest';
import { storedSample } from '../../../test/ingest.ts';
import type { DeviceKind } from '../../db/schema.ts';
import { isNumeric } from './fields.ts';
import { chartParams, defaultParams } from './params.ts';

describe('chart parameters', () => {
  for (const definition of Object.values(protocols)) {
    if (definition.kind === 'gateway') continue;
    const kind = definition.kind as DeviceKind;
    it(`${definition.id}: stored parameters match the samples columns`, () => {
      const plan = protocolPlan(definition.id)!;
      const input: Record<string, InputValue> = {};
      definition.fields.forEach((f, i) => {
        if (f.group === 'realtime' && isNumeric(f)) input[f.key] = (i % 9) + 1;
      });
      if ('slavePackCount' in input) input.slavePackCount = 7;
      const values = plan.decode(plan.encode(input, { groups: ['info', 'realtime'] })).values;
      const { columns, sample } = storedSample(kind, values);
      const params = chartParams(plan, kind);
      for (const p of params.filter((x) => x.column)) {
        const column = columns.indexOf(p.column!);
        expect(column, `${p.key} → ${p.column}`).toBeGreaterThanOrEqual(0);
        const stored = sample[column];
        expect(stored, p.key).not.toBeNull();
        // Both read in the convention: the column holds the register, turned by the parameter's sign.
        expect(stored! * p.scale * p.sign).toBeCloseTo(p.read(values)!, 6);
      }
      columns.forEach((column, i) => {
        if (sample[i] !== null)
          expect(
            params.some((p) => p.column === column),
            `${definition.id}: ${column} has no parameter`,
          ).toBe(true);
      });
      expect(defaultParams(plan, kind).length).toBeLessThanOrEqual(6);
      expect(new Set(params.map((p) => p.key)).size).toBe(params.length);
    });
  }
});
