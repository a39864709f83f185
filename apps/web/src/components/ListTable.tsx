/**
 * One shape for every list table. The columns keep their declared widths and the table scrolls
 * sideways past them (the first column stays fixed at the left); a cell too narrow for its text
 * ends in "…" and shows the whole text as its title (string cells; rendered cells bring their
 * own tooltip); a header too long for its column wraps. The header is sticky under the shell's header. A list page's table
 * (`fill`) gets a body as high as the window leaves below the table's top, with the pagination
 * still on screen (a table starting in the window's lower half fills the window under the
 * shell's header once scrolled to); other tables grow with their rows (or up to `height`).
 */
import { RightOutlined } from '@ant-design/icons';
import { Button, Table, type TableColumnsType, type TablePaginationConfig, type TableProps, Tooltip } from 'antd';
import { type RefCallback, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import parts from './parts.module.css';

/** The shell's sticky header: the table header sticks below it. */
export const SHELL_HEADER = 64;
/** The smallest body of a filling table: below it the page scrolls instead. */
export const MIN_BODY = 240;
/** Under a list page's table: the card's bottom padding and the content's margin. */
export const BELOW_TABLE = 40;
/** The width a column without one counts for. */
const DEFAULT_WIDTH = 120;

type Columns<Row> = TableColumnsType<Row>;

/**
 * The columns as a list shows them: the first fixed at the left; every column but those fixed at
 * the right (row actions) cut with an ellipsis unless it says otherwise.
 */
export function listColumns<Row>(columns: Columns<Row>): Columns<Row> {
  return columns.map((c, i) => {
    const out = { ...c };
    if (i === 0 && out.fixed === undefined) out.fixed = 'left';
    if (out.ellipsis === undefined && out.fixed !== 'right') out.ellipsis = true;
    return out;
  }) as Columns<Row>;
}

/** The table's width: the sum of its columns' widths (a column without one counts 120 px), plus `extra`. */
export function tableWidth<Row>(columns: Columns<Row>, extra = 0): number {
  return columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : DEFAULT_WIDTH), extra);
}

/**
 * The last column of a list whose rows open their details: a button per row (reached by the
 * keyboard; a click anywhere on the row opens the details as well), fixed at the right.
 */
export function openColumn<Row>({
  title,
  label,
  onOpen,
  testId,
}: {
  title: string;
  /** The button's tooltip and accessible name. */
  label: string;
  onOpen: (row: Row) => void;
  testId: (row: Row) => string;
}): Columns<Row>[number] {
  return {
    key: 'actions',
    title,
    width: 64,
    fixed: 'right',
    align: 'center',
    render: (_: unknown, row: Row) => (
      <Tooltip title={label}>
        <Button
          type="text"
          size="small"
          icon={<RightOutlined />}
          aria-label={label}
          onClick={(ev) => {
            ev.stopPropagation();
            onOpen(row);
          }}
          data-testid={testId(row)}
        />
      </Tooltip>
    ),
  };
}

/**
 * A list's pagination: the page, its size (one of `sizes`) and the total the criteria find, with
 * `totalText` beside it. A new page size starts again at page 1: `onPage` gets the page and size
 * to show.
 */
export function listPagination({
  page,
  size,
  total,
  sizes,
  onPage,
  totalText,
  small = false,
}: {
  page: number;
  size: number;
  total: number;
  sizes: readonly number[];
  onPage: (page: number, size: number) => void;
  totalText?: (total: number) => string;
  /** The small pagination of a card's table. */
  small?: boolean;
}): TablePaginationConfig {
  return {
    current: page,
    pageSize: size,
    total,
    showSizeChanger: true,
    pageSizeOptions: sizes.map(String),
    ...(totalText ? { showTotal: totalText } : {}),
    ...(small ? { size: 'small' as const } : {}),
    onChange: (next, nextSize) => onPage(nextSize !== size ? 1 : next, nextSize),
  };
}

export interface FillMetrics {
  /** The window's inner height. */
  viewport: number;
  /** The table's top, from the top of the document. */
  top: number;
  /** The table's height outside its body: the header row and the pagination. */
  chrome: number;
  /** What stays below the table: padding and margins. */
  below: number;
  /** The sticky header above the page. */
  header?: number;
  min?: number;
}

/**
 * The body height that ends the table (pagination included) `below` px above the window's
 * bottom; at least `min`. A table that starts in the window's lower half (below a chart) fills
 * the window under the sticky header instead, seen once the page is scrolled to it.
 */
export function fillHeight({ viewport, top, chrome, below, header = SHELL_HEADER, min = MIN_BODY }: FillMetrics): number {
  const from = top > viewport / 2 ? header : top;
  return Math.max(min, Math.floor(viewport - from - chrome - below));
}

const BODY = '.ant-table-body, .ant-table-tbody-virtual-holder';

/**
 * The body height for a table in the element given to `ref`: measured from where the table
 * stands and recomputed when the window or the content above it (filters, a bulk bar) changes size.
 */
export function useFillHeight(
  enabled = true,
  below = BELOW_TABLE,
): { ref: RefCallback<HTMLElement>; y: number; el: HTMLElement | null } {
  const [el, setEl] = useState<HTMLElement | null>(null);
  const [y, setY] = useState(() =>
    fillHeight({ viewport: typeof window === 'undefined' ? 900 : window.innerHeight, top: 320, chrome: 120, below }),
  );
  const ref = useCallback<RefCallback<HTMLElement>>((node) => setEl(node), []);

  useEffect(() => {
    if (!enabled || !el) return;
    const measure = () => {
      const body = el.querySelector<HTMLElement>(BODY);
      const next = fillHeight({
        viewport: window.innerHeight,
        top: el.getBoundingClientRect().top + window.scrollY,
        chrome: el.offsetHeight - (body?.offsetHeight ?? 0),
        below,
      });
      setY((current) => (Math.abs(current - next) < 1 ? current : next));
    };
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => measure());
    observer?.observe(el);
    if (el.parentElement) observer?.observe(el.parentElement);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [el, enabled, below]);

  return { ref, y, el };
}

/** The elements a table scrolls in: its body (a height given) or its content (sideways only). */
const SCROLLERS = '.ant-table-body, .ant-table-content';

/**
 * Every scroll container of the tables under `root` that has something to scroll gets into the
 * keyboard's tab order, named by `label` (a keyboard user scrolls it with the arrow keys); one
 * with nothing to scroll stays out of it.
 */
export function markScrollRegions(root: HTMLElement, label: string): void {
  for (const region of root.querySelectorAll<HTMLElement>(SCROLLERS)) {
    const scrolls = region.scrollHeight > region.clientHeight || region.scrollWidth > region.clientWidth;
    if (scrolls) {
      if (region.getAttribute('tabindex') !== '0') region.setAttribute('tabindex', '0');
      if (region.getAttribute('role') !== 'group') region.setAttribute('role', 'group');
      if (region.getAttribute('aria-label') !== label) region.setAttribute('aria-label', label);
    } else if (region.hasAttribute('tabindex')) {
      region.removeAttribute('tabindex');
      region.removeAttribute('role');
      region.removeAttribute('aria-label');
    }
  }
}

/** Keeps `markScrollRegions` true while the table's rows and size change. */
function useScrollRegions(el: HTMLElement | null, label: string): void {
  useEffect(() => {
    if (!el) return;
    const mark = () => markScrollRegions(el, label);
    mark();
    const rows = typeof MutationObserver === 'undefined' ? null : new MutationObserver(mark);
    rows?.observe(el, { childList: true, subtree: true });
    const size = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(mark);
    size?.observe(el);
    window.addEventListener('resize', mark);
    return () => {
      rows?.disconnect();
      size?.disconnect();
      window.removeEventListener('resize', mark);
    };
  }, [el, label]);
}

export type ListTableProps<Row> = Omit<TableProps<Row>, 'scroll' | 'sticky' | 'columns'> & {
  columns: Columns<Row>;
  /** A list page's table: the body fills the window's height below the table. */
  fill?: boolean;
  /** Else the body's largest height (it scrolls past it); none: it grows with its rows. */
  height?: number;
  /** The header sticks under the shell's header while the page scrolls (not in a dialog). */
  stickyHeader?: boolean;
  /** The table's name; also names its scrolling body. */
  'aria-label'?: string;
};

/** An antd Table in the list shape (see the file's comment); every list table goes through it. */
export function ListTable<Row extends object>({
  columns,
  fill = false,
  height,
  stickyHeader = true,
  rowSelection,
  'aria-label': label,
  ...props
}: ListTableProps<Row>) {
  const { t } = useTranslation('common');
  const { ref, y, el } = useFillHeight(fill);
  useScrollRegions(el, label ?? t('table.scrollRegion'));
  const shaped = useMemo(() => listColumns(columns), [columns]);
  const selectionWidth = rowSelection ? Number(rowSelection.columnWidth ?? 32) : 0;
  const bodyHeight = fill ? y : height;
  return (
    <div ref={ref} className={parts.listTable}>
      <Table<Row>
        {...props}
        aria-label={label}
        columns={shaped}
        rowSelection={rowSelection}
        scroll={{ x: tableWidth(shaped, selectionWidth), ...(bodyHeight ? { y: bodyHeight } : {}) }}
        sticky={stickyHeader ? { offsetHeader: SHELL_HEADER } : false}
      />
    </div>
  );
}

/** A short text that carries itself as its title: read in full where a narrow column cuts it. */
export function Titled({ text }: { text: string }) {
  return <span title={text}>{text}</span>;
}
