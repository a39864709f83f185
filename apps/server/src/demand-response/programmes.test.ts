/** Every programme the portal names has its terms PDF where the web serves it. */
import fs from 'node:fs';
import path from 'node:path';
import { demandResponseApi } from '@sunfleet/contracts';
import { describe, expect, it } from 'vitest';
import { termsUrl } from './programmes.ts';

const publicDir = path.resolve(import.meta.dirname, '../../../web/public');

describe('programme terms', () => {
  it('four programmes, each with a PDF under /assets/vpp/', () => {
    expect(demandResponseApi.PROGRAMME_TERMS).toHaveLength(4);
    for (const p of demandResponseApi.PROGRAMME_TERMS) {
      const url = termsUrl(p.name.toLowerCase())!;
      expect(url).toBe(`/assets/vpp/${p.file}`);
      const file = fs.readFileSync(path.join(publicDir, url));
      expect(file.subarray(0, 5).toString()).toBe('%PDF-');
      expect(file.toString('latin1')).toContain(p.name);
    }
    expect(termsUrl('Another programme')).toBeNull();
  });
});
