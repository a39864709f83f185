import { describe, expect, it } from 'vitest';
import { newJobId } from './job-id.ts';

describe('job ids', () => {
  it('sort in the order they were made, within one millisecond and across them', () => {
    const ids = [
      ...Array.from({ length: 5000 }, () => newJobId(1_800_000_000_000)),
      ...Array.from({ length: 10 }, () => newJobId(1_800_000_000_500)),
    ];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('look like UUIDs (the protocol takes 8 to 64 letters, digits and dashes)', () => {
    const id = newJobId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
