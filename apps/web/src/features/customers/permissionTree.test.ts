import type { PermissionTreeNode } from '@sunfleet/contracts';
import { describe, expect, it } from 'vitest';
import { allNames, toggle } from './permissionTree.ts';

const node = (name: string, children: PermissionTreeNode[] = []): PermissionTreeNode => ({
  name,
  type: 0,
  title: name,
  children,
});
const tree = [
  node('station.view', [node('station.create'), node('station.edit')]),
  node('company.management', [node('company.role.list.view', [node('company.role.add')])]),
];

describe('permission tree checks', () => {
  it('checking a child checks its ancestors', () => {
    expect(toggle(tree, [], 'company.role.add', true)).toEqual([
      'company.management',
      'company.role.list.view',
      'company.role.add',
    ]);
  });
  it('unchecking a parent unchecks its descendants, and nothing else', () => {
    const all = allNames(tree);
    expect(toggle(tree, all, 'company.management', false)).toEqual(['station.view', 'station.create', 'station.edit']);
    expect(toggle(tree, all, 'station.create', false)).toEqual([
      'station.view',
      'station.edit',
      'company.management',
      'company.role.list.view',
      'company.role.add',
    ]);
  });
  it('keeps tree order and drops names the tree does not hold', () => {
    expect(toggle(tree, ['station.edit', 'firmware.management', 'station.view'], 'station.create', true)).toEqual([
      'station.view',
      'station.create',
      'station.edit',
    ]);
  });
});
