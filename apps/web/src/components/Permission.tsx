/**
 * The permission directives. `Can` and `useMayCall` apply the one rule of `app/access.ts` to
 * the endpoint a button calls: `<Can call={plantsApi.deletePlant} on={plant.canManage}>…</Can>`
 * shows the button only to a caller granted the call, not read-only when it writes, and with the
 * right on that plant. `Permission` renders its children only if the current page's granted
 * buttons include `name` (buttons that call no endpoint of their own, e.g. exports).
 */
import type { PermissionName } from '@sunfleet/contracts';
import { type ReactNode, useCallback, useContext } from 'react';
import { type CallRule, mayCall } from '../app/access.ts';
import { usePage } from '../app/pageContext.ts';
import { ShellContext } from '../app/shell/shellContext.ts';

/** `(call, objectRight?) => may the caller make this call` (outside the signed-in shell: never). */
export function useMayCall(): (call: CallRule, objectRight?: boolean) => boolean {
  const shell = useContext(ShellContext);
  return useCallback(
    (call: CallRule, objectRight?: boolean) => (shell ? mayCall(shell.rights, call, objectRight) : false),
    [shell],
  );
}

/** Renders its children only when the caller may make `call` (on the object whose right is `on`). */
export function Can({ call, on, children }: { call: CallRule; on?: boolean; children: ReactNode }) {
  return useMayCall()(call, on) ? children : null;
}

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
