import type { User } from '../db/schema.ts';

/** The authenticated account behind a request, with its granted permission names. */
export interface Caller {
  user: User;
  sessionId: string;
  grants: ReadonlySet<string>;
}

export const can = (caller: Caller, permission: string) => caller.grants.has(permission);
