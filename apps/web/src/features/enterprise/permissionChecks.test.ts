import type { PermissionTreeNode } from '@sunfleet/contracts';
import { describe, expect, it } from 'vitest';
import { normalizeChecked, toggleChecked } from './permissionChecks.ts';

const node = (name: string, children: PermissionTreeNode[] = []): PermissionTreeNode => ({
  name,
  title: name,
  type: children.length ? 0 : 1,
  children,
});
const tree = [
  node('station.view', [node('station.create'), node('station.edit')]),
  node('company.management', [node('company.info', [node('company.info.edit')]), node('company.user')]),
];

describe('permission checks of a role', () => {
  it('checking a button checks its page and the pages above it', () => {
    expect(toggleChecked(tree, [], 'company.info.edit', true)).toEqual([
      'company.management',
      'company.info',
      'company.info.edit',
    ]);
  });

  it('unchecking a page unchecks everything under it, and leaves its parent', () => {
    const all = ['company.management', 'company.info', 'company.info.edit', 'company.user'];
    expect(toggleChecked(tree, all, 'company.info', false)).toEqual(['company.management', 'company.user']);
  });

  it('a page may stay checked without its buttons', () => {
    expect(toggleChecked(tree, ['station.view', 'station.create'], 'station.create', false)).toEqual(['station.view']);
  });

  it('stored names: ancestors added, names outside the tree dropped, tree order', () => {
    expect(normalizeChecked(tree, ['company.user', 'firmware.management', 'station.edit'])).toEqual([
      'station.view',
      'station.edit',
      'company.management',
      'company.user',
    ]);
  });
});
