/** The vocabulary of events that several pages share: levels, states, counts per level. */
export const levels = ['fault', 'warning', 'info'] as const;
export type Level = (typeof levels)[number];
export type EventStateName = 'open' | 'closed';

/** Events per level, and the total. */
export type LevelCounts = Record<Level | 'total', number>;
