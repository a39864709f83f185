/** What every signed-in page can read: the profile and the routes built from the grants. */
import type { account, DataOf } from '@sunfleet/contracts';
import { createContext, useContext } from 'react';
import type { CallerRights } from '../access.ts';
import type { PageRoute } from '../routes.tsx';

export type UserProfile = DataOf<typeof account.getUser>;

export interface ShellInfo {
  profile: UserProfile;
  routes: PageRoute[];
  /** The table's routes the caller may not open (the 403 page). */
  forbidden: PageRoute[];
  buttons: Record<string, string[]>;
  rights: CallerRights;
}
export const ShellContext = createContext<ShellInfo | null>(null);

export function useShell(): ShellInfo {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell outside the signed-in shell');
  return shell;
}
