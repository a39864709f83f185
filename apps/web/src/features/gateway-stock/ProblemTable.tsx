/**
 * The per-row check report: how many rows are valid, and each problem with its row number (as
 * the spreadsheet shows it), the SN as written and what is wrong, in the interface language.
 */
import type { DataOf, gatewayStockApi } from '@sunfleet/contracts';
import { Alert, Flex, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../components/ListTable.tsx';

export type StockReport = DataOf<typeof gatewayStockApi.importCheck>;
type Problem = StockReport['problems'][number];

export function ProblemTable({ report }: { report: StockReport }) {
  const { t } = useTranslation('gatewayStock');
  const bad = report.rows - report.valid;
  const columns: TableColumnsType<Problem & { key: string }> = [
    { key: 'row', dataIndex: 'row', title: t('import.row'), width: 80 },
    { key: 'sn', dataIndex: 'sn', title: t('import.sn'), width: 200, render: (sn: string) => sn || '--' },
    {
      key: 'problem',
      title: t('import.problem'),
      width: 360,
      render: (_, p) => t(`problems.${p.problem}`, { firstRow: p.firstRow, value: p.value }),
    },
  ];
  return (
    <Flex vertical gap={8} data-testid="stock-report">
      {bad === 0 ? (
        <Alert type="success" showIcon message={t('import.allValid', { count: report.rows })} data-testid="stock-report-ok" />
      ) : (
        <Alert
          type="warning"
          showIcon
          message={t('import.summary', { valid: report.valid, rows: report.rows, bad })}
          data-testid="stock-report-summary"
        />
      )}
      {report.problems.length > 0 && (
        <>
          <Typography.Text strong>{t('import.problemsTitle')}</Typography.Text>
          <ListTable
            rowKey="key"
            size="small"
            stickyHeader={false}
            columns={columns}
            dataSource={report.problems.map((p, i) => ({ ...p, key: `${p.row}-${p.problem}-${i}` }))}
            pagination={report.problems.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
            aria-label={t('import.problemsTitle')}
            data-testid="stock-problems"
          />
        </>
      )}
    </Flex>
  );
}
