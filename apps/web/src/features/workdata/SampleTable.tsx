/**
 * The samples of one device over the period, oldest first, in a virtual list table filling the
 * window's height (the approach of the plant table). Paging is the server's keyset: a page's `next` is the
 * `after` of the following one, so the table keeps the cursors it has seen to go back.
 */
import { LeftOutlined, RightOutlined, VerticalRightOutlined } from '@ant-design/icons';
import { workdataApi } from '@sunfleet/contracts';
import { Button, Card, Flex, Select, type TableColumnsType, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../components/ListTable.tsx';
import { PageError } from '../../components/PageState.tsx';
import ui from '../../components/ui.module.css';
import type { DateRange } from '../../lib/dateRange.ts';
import { formatNumber } from '../../lib/format.ts';
import { formatZoned, withZone } from '../../lib/zonedTime.ts';
import { useFlowLabels } from './flowLabels.ts';
import { formatValue, paramTitle, type SignNotes, type WorkdataParam } from './format.ts';
import styles from './workdata.module.css';
import { useSamples } from './workdataQueries.ts';

/**
 * A parameter's column head and shape: its title (signed power with its convention; the key in a
 * tooltip), a width from the title's length (120-220 px), numbers to the right.
 */
export function paramColumn(p: WorkdataParam, signs: SignNotes) {
  const title = paramTitle(p, signs);
  return {
    title: (
      <Tooltip title={`${title} · ${p.key}`}>
        <span>{title}</span>
      </Tooltip>
    ),
    width: Math.max(120, Math.min(220, title.length * 8 + 24)),
    align: (p.numeric && !p.options ? 'right' : 'left') as 'right' | 'left',
    ellipsis: true,
  };
}

export const sampleSizes = [100, 200, 500, workdataApi.WORKDATA_PAGE_MAX] as const;
type Row = { key: string; ts: string; values: Array<number | string | null> };

export function SampleTable({ sn, range, params }: { sn: string; range: DateRange; params: string[] }) {
  const { t, i18n } = useTranslation('workdata');
  const { signs } = useFlowLabels();
  const [size, setSize] = useState<number>(200);
  // cursors[i] is the `after` of page i (page 0 has none); offsets[i] the rows before it.
  const [cursors, setCursors] = useState<Array<number | undefined>>([undefined]);
  const [offsets, setOffsets] = useState<number[]>([0]);
  const [page, setPage] = useState(0);
  const samples = useSamples({ sn, range, params, after: cursors[page], size });
  const data = samples.data;
  const columns = data?.params ?? [];
  const timezone = data?.timezone ?? 'UTC';

  const rows: Row[] = useMemo(() => (data?.list ?? []).map((r) => ({ key: r.ts, ts: r.ts, values: r.values })), [data]);
  const tableColumns: TableColumnsType<Row> = [
    {
      key: 'ts',
      title: withZone(t('table.time'), timezone),
      width: 180,
      fixed: 'left',
      render: (_, r) => (
        <span className={ui.figures}>{formatZoned(r.ts, timezone, i18n.language, { seconds: true, label: false })}</span>
      ),
    },
    ...columns.map((p: WorkdataParam, i) => ({
      key: p.key,
      ...paramColumn(p, signs),
      render: (_: unknown, r: Row) => <span className={ui.figures}>{formatValue(r.values[i] ?? null, p)}</span>,
    })),
  ];

  const total = data?.total ?? 0;
  const offset = offsets[page] ?? 0;
  const from = rows.length ? offset + 1 : 0;
  const to = offset + rows.length;
  const next = data?.next ?? null;
  const busy = samples.isFetching;

  const go = (target: number) => {
    if (target === page + 1 && next !== null) {
      setCursors((c) => [...c.slice(0, page + 1), next]);
      setOffsets((o) => [...o.slice(0, page + 1), to]);
    }
    setPage(target);
  };

  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="baseline" wrap>
          <span>{t('table.title')}</span>
          <Typography.Text type="secondary" className={styles.total} data-testid="sample-total">
            {t('table.total', { count: total, formatted: formatNumber(total) })}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Flex gap={8} align="center" wrap>
          <Typography.Text type="secondary" data-testid="sample-range">
            {t('table.showing', { from: formatNumber(from), to: formatNumber(to), total: formatNumber(total) })}
          </Typography.Text>
          <Tooltip title={t('table.first')}>
            <Button
              size="small"
              icon={<VerticalRightOutlined />}
              aria-label={t('table.first')}
              disabled={page === 0 || busy}
              onClick={() => setPage(0)}
              data-testid="sample-first"
            />
          </Tooltip>
          <Tooltip title={t('table.prev')}>
            <Button
              size="small"
              icon={<LeftOutlined />}
              aria-label={t('table.prev')}
              disabled={page === 0 || busy}
              onClick={() => go(page - 1)}
              data-testid="sample-prev"
            />
          </Tooltip>
          <Tooltip title={t('table.next')}>
            <Button
              size="small"
              icon={<RightOutlined />}
              aria-label={t('table.next')}
              disabled={next === null || busy}
              onClick={() => go(page + 1)}
              data-testid="sample-next"
            />
          </Tooltip>
          <Select<number>
            size="small"
            value={size}
            onChange={(s) => {
              setSize(s);
              setCursors([undefined]);
              setOffsets([0]);
              setPage(0);
            }}
            options={sampleSizes.map((s) => ({ value: s, label: t('table.perPage', { size: s }) }))}
            aria-label={t('table.pageSize')}
            className={styles.pageSize}
            data-testid="sample-size"
          />
        </Flex>
      }
      data-testid="sample-card"
    >
      {samples.isError && !data ? (
        <PageError error={samples.error} onRetry={() => void samples.refetch()} />
      ) : (
        <ListTable<Row>
          virtual
          fill
          size="small"
          rowKey="key"
          columns={tableColumns}
          dataSource={rows}
          loading={samples.isPending || busy}
          pagination={false}
          locale={{ emptyText: t('empty.noSamples') }}
          data-testid="sample-table"
        />
      )}
    </Card>
  );
}
