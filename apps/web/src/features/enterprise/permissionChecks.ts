/**
 * A role's permissions picked in the company's permission tree. A button or sub-page is of no
 * use without its page, so checking a node checks its ancestors, and unchecking a node unchecks
 * everything under it; a page may be granted without any of its buttons. Pure functions.
 */
import type { PermissionTreeNode } from '@sunfleet/contracts';

interface Located {
  node: PermissionTreeNode;
  ancestors: string[];
}

function locate(tree: readonly PermissionTreeNode[], name: string, ancestors: string[] = []): Located | null {
  for (const node of tree) {
    if (node.name === name) return { node, ancestors };
    const found = locate(node.children, name, [...ancestors, node.name]);
    if (found) return found;
  }
  return null;
}

const descendants = (node: PermissionTreeNode): string[] => node.children.flatMap((c) => [c.name, ...descendants(c)]);

/** The names checked after `name` is checked (`on`) or unchecked in `tree`. */
export function toggleChecked(
  tree: readonly PermissionTreeNode[],
  checked: readonly string[],
  name: string,
  on: boolean,
): string[] {
  const found = locate(tree, name);
  if (!found) return [...checked];
  const next = new Set(checked);
  if (on) for (const n of [...found.ancestors, name]) next.add(n);
  else for (const n of [name, ...descendants(found.node)]) next.delete(n);
  return inTreeOrder(tree, next);
}

/** The names of `names` that are in `tree`, each with its ancestors, in the tree's order. */
export function normalizeChecked(tree: readonly PermissionTreeNode[], names: Iterable<string>): string[] {
  const next = new Set<string>();
  for (const name of names) {
    const found = locate(tree, name);
    if (found) for (const n of [...found.ancestors, name]) next.add(n);
  }
  return inTreeOrder(tree, next);
}

function inTreeOrder(tree: readonly PermissionTreeNode[], names: ReadonlySet<string>, out: string[] = []): string[] {
  for (const node of tree) {
    if (names.has(node.name)) out.push(node.name);
    inTreeOrder(node.children, names, out);
  }
  return out;
}

/** antd Tree data: title and key of each node. */
export interface TreeDatum {
  key: string;
  title: string;
  children: TreeDatum[];
}
export const treeData = (tree: readonly PermissionTreeNode[]): TreeDatum[] =>
  tree.map((n) => ({ key: n.name, title: n.title, children: treeData(n.children) }));
