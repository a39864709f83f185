import { describe, expect, it } from 'vitest';
import { firmwareRules, firmwareUploadProblem, versionRefusal } from './firmware.ts';

const file = (name: string, size = 100) => ({ name, size });

describe('firmware upload rule', () => {
  it('takes a .bin or .hex of at most 1.5 MiB (1,572,864 bytes) with a name of at most 40 allowed characters', () => {
    expect(firmwareRules.maxBytes).toBe(1_572_864);
    expect(firmwareUploadProblem(file('fw-1.2_3.bin'), 'V1')).toBeNull();
    expect(firmwareUploadProblem(file('FW.HEX'), 'V1')).toBeNull();
    expect(firmwareUploadProblem(file('fw.bin', 1_572_864), 'V1')).toBeNull();
    expect(firmwareUploadProblem(file('fw.bin', 1_572_865), 'V1')).toBe('tooLarge');
    expect(firmwareUploadProblem(file('fw.bin', 0), 'V1')).toBe('empty');
    expect(firmwareUploadProblem(file('fw.zip'), 'V1')).toBe('extension');
    expect(firmwareUploadProblem(file('fw 1.bin'), 'V1')).toBe('fileName');
    expect(firmwareUploadProblem(file(`${'a'.repeat(36)}.bin`), 'V1')).toBeNull();
    expect(firmwareUploadProblem(file(`${'a'.repeat(37)}.bin`), 'V1')).toBe('fileName');
    expect(firmwareUploadProblem(null, 'V1')).toBe('fileMissing');
  });

  it('takes a version of letters, digits, hyphen and underscore, higher than every version of the product', () => {
    expect(firmwareUploadProblem(file('a.bin'), 'V1.0')).toBe('version');
    expect(firmwareUploadProblem(file('a.bin'), '')).toBe('version');
    expect(firmwareUploadProblem(file('a.bin'), 'a'.repeat(41))).toBe('version');
    expect(firmwareUploadProblem(file('a.bin'), 'V1_10', ['V1_9', 'V1_2'])).toBeNull();
    expect(firmwareUploadProblem(file('a.bin'), 'V1_9', ['V1_10'])).toBe('notHigher');
  });

  it('answers 4000 for the same version, 4001 (inverter) or 4002 (gateway) for a lower one', () => {
    expect(versionRefusal('inverter', '2', ['1', '2', '3'])).toBe(4000);
    expect(versionRefusal('inverter', '2', ['1', '3'])).toBe(4001);
    expect(versionRefusal('gateway', '2', ['3'])).toBe(4002);
    expect(versionRefusal('gateway', '4', ['3', '1_9'])).toBeNull();
  });
});
