import { render, waitFor } from '@testing-library/react';
import type { TableColumnsType } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fillHeight, ListTable, listColumns, MIN_BODY, markScrollRegions, SHELL_HEADER, tableWidth } from './ListTable.tsx';

type Row = { id: number; name: string; note: string };
const columns: TableColumnsType<Row> = [
  { key: 'name', dataIndex: 'name', title: 'Name', width: 150 },
  { key: 'note', dataIndex: 'note', title: 'Note', ellipsis: false },
  { key: 'more', dataIndex: 'note', title: 'More', width: 90 },
  { key: 'actions', title: 'Actions', width: 80, fixed: 'right' },
];

describe('list columns', () => {
  it('fix the first column at the left and cut every other text column with an ellipsis', () => {
    const shaped = listColumns(columns);
    expect(shaped[0]).toMatchObject({ fixed: 'left', ellipsis: true });
    expect(shaped.slice(1).map((c) => c.fixed)).toEqual([undefined, undefined, 'right']);
    // A column that says otherwise keeps its say; row actions (fixed right) are not cut.
    expect(shaped.map((c) => c.ellipsis)).toEqual([true, false, true, undefined]);
    // The given columns are left as they were.
    expect(columns[0]).not.toHaveProperty('fixed');
  });

  it('keep a first column fixed elsewhere as it is', () => {
    expect(listColumns<Row>([{ key: 'a', fixed: 'right' }])[0]?.fixed).toBe('right');
  });

  it('are as wide as their widths together (120 px for a column without one), plus the selection column', () => {
    expect(tableWidth(columns)).toBe(150 + 120 + 90 + 80);
    expect(tableWidth(columns, 40)).toBe(480);
  });
});

describe('fill height', () => {
  it('ends the table (pagination included) the given space above the window bottom', () => {
    // 768 px window, table at 300 px, header row and pagination 120 px, 40 px below.
    expect(fillHeight({ viewport: 768, top: 300, chrome: 120, below: 40 })).toBe(308);
    expect(fillHeight({ viewport: 1080, top: 300, chrome: 120, below: 40 })).toBe(620);
  });

  it('never goes below the smallest body: the page scrolls instead', () => {
    expect(fillHeight({ viewport: 768, top: 362, chrome: 132, below: 40 })).toBe(MIN_BODY);
  });

  it('a table starting in the lower half of the window fills the window under the sticky header once scrolled to', () => {
    expect(fillHeight({ viewport: 768, top: 700, chrome: 100, below: 40 })).toBe(768 - SHELL_HEADER - 100 - 40);
    expect(fillHeight({ viewport: 300, top: 900, chrome: 100, below: 40 })).toBe(MIN_BODY);
  });
});

describe('ListTable', () => {
  it('gives the antd table its sticky header, a fixed first column, cut cells with their title and a sideways scroll', () => {
    const long = 'A plant name far too long for its column';
    const { container } = render(
      <ListTable<Row> rowKey="id" columns={columns} dataSource={[{ id: 1, name: long, note: 'n' }]} pagination={false} />,
    );
    expect(container.querySelector('.ant-table-sticky-holder')).not.toBeNull();
    const cell = container.querySelector<HTMLElement>('.ant-table-tbody .ant-table-cell-fix-start');
    expect(cell?.textContent).toBe(long);
    expect(cell?.classList.contains('ant-table-cell-ellipsis')).toBe(true);
    expect(cell?.getAttribute('title')).toBe(long);
    // The table is as wide as its columns: it scrolls sideways instead of squeezing them.
    const table = container.querySelector<HTMLElement>('.ant-table-content table, .ant-table-body table');
    expect(table?.style.width).toBe('440px');
  });
});

/** Give every element of `selector` a size: its content `content` px high in a box `box` px high. */
function sized(selector: string, content: number, box: number) {
  const pick = (el: Element, yes: number, no: number) => (el.matches(selector) ? yes : no);
  vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return pick(this, content, 0);
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return pick(this, box, 0);
  });
}

describe('scroll regions', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a table body with rows past its height is in the tab order with a name; one without is not', () => {
    const root = document.createElement('div');
    root.innerHTML = '<div class="ant-table-body" id="a"></div><div class="ant-table-content" id="b"></div>';
    sized('#a', 900, 300);
    markScrollRegions(root, 'Rows');
    const a = root.querySelector('#a')!;
    expect([a.getAttribute('tabindex'), a.getAttribute('role'), a.getAttribute('aria-label')]).toEqual(['0', 'group', 'Rows']);
    expect(root.querySelector('#b')!.hasAttribute('tabindex')).toBe(false);
    // Rows filtered away: nothing to scroll any more, out of the tab order again.
    sized('#b', 900, 300);
    markScrollRegions(root, 'Rows');
    expect([a.hasAttribute('tabindex'), a.hasAttribute('role'), a.hasAttribute('aria-label')]).toEqual([false, false, false]);
    expect(root.querySelector('#b')!.getAttribute('tabindex')).toBe('0');
  });

  it('a list table with a body height marks its body once it overflows, named by its aria-label', async () => {
    sized('.ant-table-body', 2000, 240);
    const rows = Array.from({ length: 40 }, (_, i) => ({ id: i, name: `n${i}`, note: '' }));
    const { container } = render(
      <ListTable<Row> rowKey="id" columns={columns} dataSource={rows} pagination={false} height={240} aria-label="Plants" />,
    );
    await waitFor(() => expect(container.querySelector('.ant-table-body')?.getAttribute('tabindex')).toBe('0'));
    expect(container.querySelector('.ant-table-body')?.getAttribute('aria-label')).toBe('Plants');
  });
});
