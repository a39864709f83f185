import { account, type PermissionName, plantsApi } from '@sunfleet/contracts';
import { describe, expect, it } from 'vitest';
import { mayCall, mayOpen } from './access.ts';
import type { PageRoute } from './routes.tsx';

const caller = (names: PermissionName[], readOnly = false) => ({ granted: new Set<string>(names), readOnly });
const owner = caller(['station.view', 'station.create', 'station.edit', 'station.delete']);

describe('mayCall', () => {
  it('needs the call’s permission', () => {
    expect(mayCall(owner, plantsApi.deletePlant)).toBe(true);
    expect(mayCall(caller(['station.view']), plantsApi.deletePlant)).toBe(false);
    // Any one of a call's permissions is enough.
    expect(mayCall(caller(['station.edit']), plantsApi.uploadPicture)).toBe(true);
  });

  it('refuses a call that writes to a read-only account, whatever it holds', () => {
    const readOnly = caller(['station.view', 'station.create', 'station.edit'], true);
    expect(plantsApi.createPlant.writes).toBe(true);
    expect(mayCall(readOnly, plantsApi.createPlant)).toBe(false);
    expect(mayCall(readOnly, account.updateUser)).toBe(false);
    // What only reads stays.
    expect(mayCall(readOnly, plantsApi.listPlants)).toBe(true);
  });

  it('on one plant, needs the right the server returned for it', () => {
    // A plant visitor's account may edit plants, but not this one.
    expect(mayCall(owner, plantsApi.editPlant, false)).toBe(false);
    expect(mayCall(owner, plantsApi.editPlant, true)).toBe(true);
    // The right does not stand in for the permission.
    expect(mayCall(caller(['station.view']), plantsApi.editPlant, true)).toBe(false);
  });
});

describe('mayOpen', () => {
  const form: PageRoute = {
    path: '/plant-add',
    titleKey: 'x',
    permission: 'station.view',
    action: plantsApi.createPlant,
    hidden: true,
  };
  it('a form needs its page permission and its call', () => {
    expect(mayOpen(owner, form)).toBe(true);
    expect(mayOpen(caller(['station.view']), form)).toBe(false);
    expect(mayOpen(caller(['station.create']), form)).toBe(false);
    expect(mayOpen(caller(['station.view', 'station.create'], true), form)).toBe(false);
  });

  it('a menu page without a permission is never open; a hidden one is', () => {
    expect(mayOpen(owner, { path: '/x', titleKey: 'x' })).toBe(false);
    expect(mayOpen(caller([]), { path: '/x', titleKey: 'x', hidden: true })).toBe(true);
  });

  it('a page about the caller’s own company is not open to an account in none (an operator)', () => {
    const page: PageRoute = { path: '/c', titleKey: 'c', permission: 'company.info', ownCompany: true };
    const all = caller(['company.info']);
    expect(mayOpen({ ...all, inCompany: true }, page)).toBe(true);
    expect(mayOpen({ ...all, inCompany: false }, page)).toBe(false);
  });
});
