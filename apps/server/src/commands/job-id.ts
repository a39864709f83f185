/**
 * Job ids that sort in the order the jobs were made (the layout of a version 7 UUID): 48 bits of
 * milliseconds, then a counter that goes up within a millisecond in this process, then random
 * bits. Jobs stored together share their creation time, so a gateway's queued jobs are sent in
 * id order after `created_at`: the order they were submitted.
 */
import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;

// Random bytes drawn 4 KiB at a time (a burst makes thousands of ids; one call each was a
// measurable share of it).
const pool = Buffer.alloc(4096);
let offset = pool.length;
function random8(): Buffer {
  if (offset + 8 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += 8;
  return pool.subarray(offset - 8, offset);
}

export function newJobId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    // More than 4,096 ids in one millisecond: borrow the next one (ids stay in order).
    lastMs += 1;
    counter = 0;
  }
  const hex = lastMs.toString(16).padStart(12, '0').slice(-12);
  const rand = random8();
  rand[0] = (rand[0]! & 0x3f) | 0x80; // the variant bits
  const tail = rand.toString('hex');
  const seq = (0x7000 | counter).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${seq}-${tail.slice(0, 4)}-${tail.slice(4, 16)}`;
}
