import { describe, expect, it } from 'vitest';
import { hourLabel, iso, localTimeFormatter, wallText } from './format.ts';

describe('formats', () => {
  it('formats local times in a zone', () => {
    const f = localTimeFormatter('Europe/Madrid');
    expect(f(Date.UTC(2025, 5, 9, 22, 0, 5))).toBe('2025-06-10 00:00:05');
    expect(f(Date.UTC(2025, 0, 9, 22, 59, 59))).toBe('2025-01-09 23:59:59');
    // Either side of the change at 01:00 UTC on 2025-03-30.
    expect(f(Date.UTC(2025, 2, 30, 0, 59, 59))).toBe('2025-03-30 01:59:59');
    expect(f(Date.UTC(2025, 2, 30, 1, 0, 0))).toBe('2025-03-30 03:00:00');
  });

  it('shows an instant as ISO UTC and nothing as null', () => {
    expect(iso(Date.UTC(2025, 0, 2, 3, 4, 5))).toBe('2025-01-02T03:04:05.000Z');
    expect(iso(null)).toBeNull();
    expect(iso(undefined)).toBeNull();
  });

  it('labels the local hour of an instant', () => {
    expect(hourLabel('Europe/Madrid', Date.UTC(2025, 2, 30, 0, 30))).toBe('01:00');
    expect(hourLabel('Europe/Madrid', Date.UTC(2025, 2, 30, 1, 0))).toBe('03:00');
    expect(hourLabel('Asia/Kolkata', Date.UTC(2025, 0, 1, 4, 29))).toBe('09:00');
    expect(hourLabel('UTC', Date.UTC(2025, 0, 1, 23, 59))).toBe('23:00');
  });

  it('shows a wall-clock time with seconds only when there are some', () => {
    expect(wallText(Date.UTC(2025, 0, 2, 3, 4))).toBe('2025-01-02 03:04');
    expect(wallText(Date.UTC(2025, 0, 2, 3, 4, 5))).toBe('2025-01-02 03:04:05');
  });
});
