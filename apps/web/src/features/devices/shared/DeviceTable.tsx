/**
 * A device list's table: one server page at a time in a list table filling the window's height
 * (as the plant list), sorting and paging done by the server, a row click opening the detail page. The
 * columns say which are sortable (`sorter: true`, `key` = the server's sort name); the current
 * sort is marked from the list state.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { TableColumnsType, TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import type { MouseEvent } from 'react';
import type { ApiError } from '../../../api/client.ts';
import { ListTable } from '../../../components/ListTable.tsx';
import { PageEmpty, PageError } from '../../../components/PageState.tsx';
import { hasFilters, type ListState, PAGE_SIZES } from './listState.ts';

/** Clicks on links, buttons and inputs inside a row, and on its selection cell, do their own thing, not the row's. */
const interactive = (e: MouseEvent<HTMLElement>) =>
  (e.target as HTMLElement).closest(
    'a, button, input, .ant-select, .ant-popover, [role="button"], .ant-table-selection-column',
  ) !== null;

interface DeviceTableProps<Row> {
  rowKey: keyof Row & string;
  columns: TableColumnsType<Row>;
  state: ListState<string>;
  onChange: (change: Partial<ListState<string>>) => void;
  onOpen?: (row: Row) => void;
  emptyText: string;
  totalText: (n: number) => string;
  testId: string;
  /** Checkboxes on the rows (a list's batch actions). */
  rowSelection?: TableProps<Row>['rowSelection'];
}

/**
 * A device list below its cards and toolbar: "none yet" when the caller has no such device at
 * all (`countTotal` 0, no filter), the error when the list failed with nothing to show, else the
 * table of the list's current page.
 */
export function DeviceListBody<Row extends object>({
  list,
  countTotal,
  emptyDescription,
  ...table
}: DeviceTableProps<Row> & {
  list: UseQueryResult<{ list: Row[]; total: number }, ApiError>;
  countTotal: number | undefined;
  emptyDescription: string;
}) {
  if (countTotal === 0 && !hasFilters(table.state)) return <PageEmpty description={emptyDescription} />;
  if (list.isError && !list.data) return <PageError error={list.error} onRetry={() => void list.refetch()} />;
  return (
    <DeviceTable<Row>
      {...table}
      rows={Array.isArray(list.data?.list) ? list.data.list : []}
      total={typeof list.data?.total === 'number' ? list.data.total : 0}
      loading={list.isPending || list.isFetching}
    />
  );
}

function DeviceTable<Row extends object>({
  rowKey,
  columns,
  rows,
  total,
  loading,
  state,
  onChange,
  onOpen,
  emptyText,
  totalText,
  testId,
  rowSelection,
}: DeviceTableProps<Row> & { rows: Row[]; total: number; loading: boolean }) {
  const marked = columns.map((c) =>
    c.sorter && c.key ? { ...c, sortOrder: state.sort === c.key ? (state.order === 1 ? 'ascend' : 'descend') : null } : c,
  ) as TableColumnsType<Row>;

  const change: TableProps<Row>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row> | undefined;
      // A third click clears the sort: back to the default (the server's SN order).
      if (s?.order && s.columnKey) onChange({ sort: String(s.columnKey), order: s.order === 'ascend' ? 1 : 2 });
      else onChange({ sort: 'sn', order: 1 });
      return;
    }
    if (extra.action === 'paginate') onChange({ page: pagination.current ?? 1, size: pagination.pageSize ?? state.size });
  };

  return (
    <ListTable<Row>
      fill
      rowKey={rowKey}
      rowSelection={rowSelection}
      size="middle"
      columns={marked}
      dataSource={rows}
      loading={loading}
      onChange={change}
      showSorterTooltip={false}
      locale={{ emptyText }}
      data-testid={testId}
      rowClassName={onOpen ? 'sf-device-row' : undefined}
      onRow={(row) => ({
        onClick: (e) => {
          if (onOpen && !interactive(e)) onOpen(row);
        },
      })}
      pagination={{
        current: state.page,
        pageSize: state.size,
        total,
        showSizeChanger: true,
        pageSizeOptions: [...PAGE_SIZES],
        showTotal: (n) => totalText(n),
      }}
    />
  );
}
