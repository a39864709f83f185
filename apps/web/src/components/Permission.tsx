/**
 * The permission directive (spec §6): renders its children only if the current page's
 * granted buttons include `name`. `<Permission name="station.create"><Button …/></Permission>`
 */
import type { ReactNode } from 'react';
import { usePage } from '../app/pageContext.ts';

export function usePermission(name: string): boolean {
  return usePage().buttons.includes(name);
}

export function Permission({ name, children }: { name: string; children: ReactNode }) {
  return usePermission(name) ? children : null;
}
