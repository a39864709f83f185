/** Contracts of the events area (issue 5); filled in by its owner. */
export {};
