/**
 * Checking permissions in a tree where a child (a button, a sub-page) is granted only with its
 * parent: checking a node checks its ancestors, unchecking one unchecks its descendants. The
 * list of names is what the server stores; a name the tree does not hold is dropped.
 */
import type { PermissionTreeNode } from '@sunfleet/contracts';

interface Walked {
  parent: Map<string, string | null>;
  children: Map<string, string[]>;
  order: string[];
}

export function walk(tree: readonly PermissionTreeNode[]): Walked {
  const out: Walked = { parent: new Map(), children: new Map(), order: [] };
  const visit = (nodes: readonly PermissionTreeNode[], parent: string | null) => {
    for (const n of nodes) {
      out.parent.set(n.name, parent);
      out.children.set(
        n.name,
        n.children.map((c) => c.name),
      );
      out.order.push(n.name);
      visit(n.children, n.name);
    }
  };
  visit(tree, null);
  return out;
}

/** `checked` with `name` checked (and its ancestors) or unchecked (and its descendants), in tree order. */
export function toggle(tree: readonly PermissionTreeNode[], checked: readonly string[], name: string, on: boolean): string[] {
  const w = walk(tree);
  const next = new Set(checked.filter((n) => w.parent.has(n)));
  if (on) {
    for (let n: string | null | undefined = name; n; n = w.parent.get(n)) next.add(n);
  } else {
    const drop = (n: string) => {
      next.delete(n);
      for (const c of w.children.get(n) ?? []) drop(c);
    };
    drop(name);
  }
  return w.order.filter((n) => next.has(n));
}

/** Every name of the tree: "select all". */
export const allNames = (tree: readonly PermissionTreeNode[]) => walk(tree).order;
