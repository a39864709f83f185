import { describe, expect, it } from 'vitest';
import { BadFrames } from './bad-frames.ts';

describe('BadFrames', () => {
  it('counts every refused frame and logs at most once per gateway per minute', () => {
    let t = 0;
    const lines: object[] = [];
    const bad = new BadFrames({ info() {}, error() {}, warn: (o) => lines.push(o) }, () => t);
    for (let i = 0; i < 100; i++) bad.add('malformedJson', 'GW1');
    bad.add('schema', 'GW2', 'data payload does not match the schema');
    t = 59_999;
    bad.add('oversized', 'GW1');
    t = 60_000;
    bad.add('oversized', 'GW1');
    expect(bad.counts).toMatchObject({ malformedJson: 100, schema: 1, oversized: 2 });
    expect(bad.total()).toBe(103);
    expect(lines).toEqual([
      { gateway: 'GW1', reason: 'malformedJson', detail: undefined },
      { gateway: 'GW2', reason: 'schema', detail: 'data payload does not match the schema' },
      { gateway: 'GW1', reason: 'oversized', detail: undefined },
    ]);
  });
});
