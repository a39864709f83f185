/** Contracts of the devices area (issue 5); filled in by its owner. */
export {};
