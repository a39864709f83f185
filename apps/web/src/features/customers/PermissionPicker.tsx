/**
 * The permissions a customer (or a customer type) holds, as a checkable tree of everything a
 * customer may be granted: checking a button checks its page, unchecking a page unchecks its
 * buttons (`permissionTree.ts`). Form.Item-friendly: `value` in, `onChange(names)` out.
 */
import type { PermissionTreeNode } from '@sunfleet/contracts';
import { Button, Flex, Skeleton, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageError } from '../../components/PageState.tsx';
import { useGrantableTree } from './customerQueries.ts';
import styles from './customers.module.css';
import { allNames, toggle } from './permissionTree.ts';

const toData = (nodes: readonly PermissionTreeNode[]): DataNode[] =>
  nodes.map((n) => ({ key: n.name, title: n.title, children: toData(n.children) }));

export function PermissionPicker({
  value = [],
  onChange,
  disabled,
  id,
}: {
  value?: string[];
  onChange?: (names: string[]) => void;
  disabled?: boolean;
  id?: string;
}) {
  const { t } = useTranslation('customers');
  const tree = useGrantableTree();
  const data = useMemo(() => toData(tree.data ?? []), [tree.data]);
  const keys = useMemo(() => allNames(tree.data ?? []), [tree.data]);
  if (tree.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (tree.isError) return <PageError error={tree.error} onRetry={() => void tree.refetch()} />;
  return (
    <div id={id} data-testid="permission-picker">
      <Flex gap={8} className={styles.treeActions}>
        <Button size="small" disabled={disabled} onClick={() => onChange?.(keys)} data-testid="permissions-all">
          {t('permissions.all')}
        </Button>
        <Button size="small" disabled={disabled} onClick={() => onChange?.([])} data-testid="permissions-none">
          {t('permissions.none')}
        </Button>
      </Flex>
      <div className={styles.tree}>
        <Tree
          checkable
          checkStrictly
          defaultExpandAll
          selectable={false}
          disabled={disabled}
          treeData={data}
          checkedKeys={{ checked: value, halfChecked: [] }}
          onCheck={(_, info) => onChange?.(toggle(tree.data ?? [], value, String(info.node.key), info.checked))}
        />
      </div>
    </div>
  );
}
