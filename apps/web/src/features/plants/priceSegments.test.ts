import { describe, expect, it } from 'vitest';
import { addSegment, removeSegment, type SegmentDraft, segmentProblems, segmentsBody, setSegmentTime } from './priceSegments.ts';

const seg = (start: string, end: string, price: number | null = 0.1): SegmentDraft => ({ start, end, price });
const keys = (s: SegmentDraft[]) => segmentProblems(s).map((p) => `${p.row ?? '-'}:${p.field ?? ''}:${p.key}`);

describe('price segment validation (mirrors the server)', () => {
  it('accepts contiguous segments from 00:00 to 23:59, in any order', () => {
    expect(keys([seg('00:00', '08:00'), seg('08:00', '18:00'), seg('18:00', '23:59')])).toEqual([]);
    expect(keys([seg('18:00', '23:59'), seg('00:00', '18:00')])).toEqual([]);
  });

  it('needs at least one and at most 6 segments', () => {
    expect(keys([])).toEqual(['-::required']);
    const seven = ['00:00', '01:00', '02:00', '03:00', '04:00', '05:00', '06:00', '23:59'];
    const rows = seven.slice(0, -1).map((s, i) => seg(s, seven[i + 1]!));
    expect(keys(rows)).toEqual(['-::tooMany']);
  });

  it('first starts at 00:00, last ends at 23:59', () => {
    expect(keys([seg('01:00', '23:59')])).toEqual(['0:start:firstStart']);
    expect(keys([seg('00:00', '23:00')])).toEqual(['0:end:lastEnd']);
  });

  it('reports gaps and overlaps on the later row', () => {
    expect(keys([seg('00:00', '08:00'), seg('09:00', '23:59')])).toEqual(['1:start:gap']);
    const gap = segmentProblems([seg('00:00', '08:00'), seg('09:00', '23:59')])[0];
    expect(gap?.values).toEqual({ from: '08:00', to: '09:00' });
    expect(keys([seg('00:00', '10:00'), seg('09:00', '23:59')])).toEqual(['1:start:overlap']);
  });

  it('each segment ends after it starts; times and price are required; price 0–9999 with two decimals', () => {
    expect(keys([seg('00:00', '12:00'), seg('12:00', '12:00'), seg('12:00', '23:59')])).toContain('1:end:endBeforeStart');
    expect(keys([seg('00:00', '', 1)])).toEqual(['0:end:timeRequired']);
    // A backwards segment is reported alone, not as a cascade of gaps and overlaps.
    expect(keys([seg('00:00', '11:00'), seg('11:00', '10:00'), seg('10:00', '23:59')])).toEqual(['1:end:endBeforeStart']);
    expect(keys([seg('00:00', '23:59', null)])).toEqual(['0:price:priceRequired']);
    expect(keys([seg('00:00', '23:59', 10000)])).toEqual(['0:price:price']);
    expect(keys([seg('00:00', '23:59', 0.125)])).toEqual(['0:price:price']);
    expect(keys([seg('00:00', '23:59', 9999)])).toEqual([]);
  });

  it('sends the segments in start order', () => {
    expect(segmentsBody([seg('12:00', '23:59', 2), seg('00:00', '12:00', 1)])).toEqual([
      { start: '00:00', end: '12:00', price: 1 },
      { start: '12:00', end: '23:59', price: 2 },
    ]);
  });
});

describe('editing helpers', () => {
  it('adding splits the last segment so the day stays covered', () => {
    let rows = addSegment([]);
    expect(rows).toEqual([seg('00:00', '23:59', null)]);
    rows = addSegment([seg('00:00', '23:59', 0.2)]);
    expect(rows).toEqual([seg('00:00', '11:00', 0.2), seg('11:00', '23:59', 0.2)]);
    expect(segmentProblems(rows)).toEqual([]);
  });

  it('removing gives the span to the neighbour', () => {
    const rows = [seg('00:00', '08:00', 1), seg('08:00', '18:00', 2), seg('18:00', '23:59', 3)];
    expect(removeSegment(rows, 1)).toEqual([seg('00:00', '18:00', 1), seg('18:00', '23:59', 3)]);
    expect(removeSegment(rows, 2)).toEqual([seg('00:00', '08:00', 1), seg('08:00', '23:59', 2)]);
    expect(removeSegment(rows, 0)).toEqual([seg('00:00', '18:00', 2), seg('18:00', '23:59', 3)]);
  });

  it('moving an end moves the next start that met it', () => {
    const rows = setSegmentTime([seg('00:00', '08:00'), seg('08:00', '23:59')], 0, 'end', '07:30');
    expect(rows).toEqual([seg('00:00', '07:30'), seg('07:30', '23:59')]);
    const starts = setSegmentTime(rows, 1, 'start', '06:00');
    expect(starts).toEqual([seg('00:00', '06:00'), seg('06:00', '23:59')]);
  });
});
