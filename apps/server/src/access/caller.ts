import type { PermissionName } from '@sunfleet/contracts';
import type { User } from '../db/schema.ts';

/** The authenticated account behind a request, with its granted permission names. */
export interface Caller {
  user: User;
  sessionId: string;
  grants: ReadonlySet<PermissionName>;
}

export const can = (caller: Caller, permission: PermissionName) => caller.grants.has(permission);
