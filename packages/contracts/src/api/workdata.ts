/** Contracts of the workdata area (issue 5); filled in by its owner. */
export {};
