// Every test vector of modbus-vectors/*.yaml whose expression our field types can express,
// decoded through our decoder and compared with the expected values.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProtocolDefinition } from './definition.ts';
import { compareExpected } from './fixtures/expected.ts';
import { inputBlocks, type Translation, translateExpression } from './fixtures/modbus-schema.ts';
import { readYamlAsText, sharedFiles } from './fixtures/shared-data.ts';
import { compile, type ProtocolPlan } from './plan.ts';

interface SchemaFile {
  blocks: { id: string; fields: { id: string; expression: string }[] }[];
  tests: {
    id: string;
    input: { firstAddress: string; rawValues: string }[];
    blocks: { id: string; expected: Record<string, string[]> }[];
  }[];
}

/** Fewest vectors each file must cover, so coverage cannot silently drop. */
const minimumCovered: Record<string, number> = {
  'BitSwapping.yaml': 1,
  'Bitset.yaml': 34,
  'Enum.yaml': 12,
  'Float.yaml': 20,
  'Integer.yaml': 33,
  'RegisterAddressing.yaml': 32,
  'String.yaml': 8,
  'SunSpec2025.yaml': 601,
  'SunSpec2025Night.yaml': 601,
};

const summary: string[] = [];

for (const file of sharedFiles('modbus-vectors', '.yaml')) {
  const name = path.basename(file);
  const schema = readYamlAsText(file) as SchemaFile;
  const plans = new Map<string, { plan: ProtocolPlan; key: string; translation: Translation } | { reason: string }>();
  let covered = 0;
  const skipped = new Map<string, number>();

  const planFor = (blockId: string, fieldId: string) => {
    const cacheKey = `${blockId}/${fieldId}`;
    const cached = plans.get(cacheKey);
    if (cached) return cached;
    const block = schema.blocks.find((b) => b.id === blockId);
    const expression = block?.fields.find((f) => f.id === fieldId)?.expression;
    let result: { plan: ProtocolPlan; key: string; translation: Translation } | { reason: string };
    const translation = expression ? translateExpression(fieldId, expression) : { ok: false as const, reason: 'no expression' };
    if (!translation.ok) result = { reason: translation.reason };
    else {
      const fields = [translation.vector.field];
      const sfId = translation.vector.scaleFactor;
      const sfExpression = sfId ? block?.fields.find((f) => f.id === sfId)?.expression : undefined;
      const sf = sfExpression ? translateExpression(sfId!, sfExpression) : undefined;
      if (sfId && !sf?.ok) result = { reason: 'scale factor field not translatable' };
      else {
        if (sf?.ok) fields.push(sf.vector.field);
        const definition: ProtocolDefinition = {
          id: cacheKey,
          name: { en: cacheKey, es: cacheKey },
          version: '1',
          kind: 'inverter',
          fields,
        };
        result = { plan: compile(definition), key: fieldId, translation };
      }
    }
    plans.set(cacheKey, result);
    return result;
  };

  describe(name, () => {
    for (const test of schema.tests) {
      it(test.id, () => {
        const blocks = inputBlocks(test.input);
        const failures: string[] = [];
        for (const expectedBlock of test.blocks) {
          for (const [fieldId, expected] of Object.entries(expectedBlock.expected)) {
            const entry = planFor(expectedBlock.id, fieldId);
            if ('reason' in entry) {
              skipped.set(entry.reason, (skipped.get(entry.reason) ?? 0) + 1);
              continue;
            }
            const frame = entry.plan.decode(blocks);
            const verdict = compareExpected(entry.plan, fieldId, frame.values[fieldId] ?? null, frame.faults, expected ?? []);
            if (verdict === 'skip-jvm') {
              skipped.set(
                'uint64 above 2^63 (the JVM reference has no unsigned 64-bit)',
                (skipped.get('uint64 above 2^63 (the JVM reference has no unsigned 64-bit)') ?? 0) + 1,
              );
            } else if (verdict !== true) failures.push(`${expectedBlock.id}/${fieldId}: ${verdict}`);
            else covered++;
          }
        }
        expect(failures).toEqual([]);
      });
    }

    afterAll(() => {
      const reasons = [...skipped].map(([reason, n]) => `${n} ${reason}`).join('; ');
      summary.push(
        `${name}: ${covered} covered, ${[...skipped.values()].reduce((a, b) => a + b, 0)} skipped${reasons ? ` (${reasons})` : ''}`,
      );
      expect(covered, `${name} vectors covered`).toBeGreaterThanOrEqual(minimumCovered[name] ?? 1);
    });
  });
}

afterAll(() => {
  console.log(`modbus vectors:\n  ${summary.join('\n  ')}`);
});
