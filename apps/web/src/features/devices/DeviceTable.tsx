/**
 * A device list's table: one server page at a time in a virtual table of fixed height (as the
 * plant list), sorting and paging done by the server, a row click opening the detail page. The
 * columns say which are sortable (`sorter: true`, `key` = the server's sort name); the current
 * sort is marked from the list state.
 */
import { Table, type TableColumnsType, type TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import type { MouseEvent } from 'react';
import { useTableHeight } from '../plants/PlantTable.tsx';
import { type ListState, PAGE_SIZES } from './listState.ts';

/** Clicks on links, buttons and inputs inside a row do their own thing, not the row's. */
const interactive = (e: MouseEvent<HTMLElement>) =>
  (e.target as HTMLElement).closest('a, button, input, .ant-select, .ant-popover, [role="button"]') !== null;

export function DeviceTable<Row extends object>({
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
  scrollX,
  testId,
}: {
  rowKey: keyof Row & string;
  columns: TableColumnsType<Row>;
  rows: Row[];
  total: number;
  loading: boolean;
  state: ListState<string>;
  onChange: (change: Partial<ListState<string>>) => void;
  onOpen?: (row: Row) => void;
  emptyText: string;
  totalText: (n: number) => string;
  scrollX: number;
  testId: string;
}) {
  const height = useTableHeight(520);
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
    <Table<Row>
      virtual
      rowKey={rowKey}
      size="middle"
      columns={marked}
      dataSource={rows}
      loading={loading}
      scroll={{ x: scrollX, y: height }}
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
