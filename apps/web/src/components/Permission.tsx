/**
 * The permission directive: renders its children only if the current page's
 * granted buttons include `name`. `<Permission name="station.create"><Button …/></Permission>`
 */
import type { PermissionName } from '@sunfleet/contracts';
import { type ReactNode, useCallback, useContext } from 'react';
import { usePage } from '../app/pageContext.ts';
import { ShellContext } from '../app/shell/shellContext.ts';

export function usePermission(name: PermissionName): boolean {
  return usePage().buttons.includes(name);
}

export function Permission({ name, children }: { name: PermissionName; children: ReactNode }) {
  return usePermission(name) ? children : null;
}

/**
 * A permission granted anywhere in the account's tree: a page (type 0) or a button of any page.
 * (Inverter-event downloads are a button of the inverter page, `inverter.export`.)
 */
export function useGranted(): (name: PermissionName) => boolean {
  const shell = useContext(ShellContext);
  return useCallback(
    (name: PermissionName) => {
      if (!shell) return false;
      if (name in shell.buttons) return true;
      return Object.values(shell.buttons).some((names) => names.includes(name));
    },
    [shell],
  );
}
