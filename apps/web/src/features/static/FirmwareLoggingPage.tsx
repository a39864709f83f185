/**
 * /firmwareLogging (no sign-in): the release notes of the published firmware — every enabled
 * gateway and inverter image that carries a change log, newest first, filtered by type, a page
 * at a time. Dates are the browser's calendar days.
 */
import { Card, Empty, Flex, List, Pagination, Segmented, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageError } from '../../components/PageState.tsx';
import ui from '../../components/ui.module.css';
import styles from './firmwareLogging.module.css';
import { StaticLayout } from './StaticLayout.tsx';
import { useFirmwareChangeLogs } from './staticQueries.ts';

type Type = 'all' | 'gateway' | 'inverter';
const SIZE = 10;

export default function FirmwareLoggingPage() {
  const { t, i18n } = useTranslation('pages');
  const [type, setType] = useState<Type>('all');
  const [page, setPage] = useState(1);
  const query = { page, size: SIZE, ...(type === 'all' ? {} : { type }) };
  const logs = useFirmwareChangeLogs(query);
  const day = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso));

  return (
    <StaticLayout>
      <Typography.Title level={3} className={ui.first}>
        {t('firmwareLogging.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('firmwareLogging.subtitle')}</Typography.Paragraph>
      <Segmented<Type>
        value={type}
        onChange={(v) => {
          setType(v);
          setPage(1);
        }}
        options={(['all', 'gateway', 'inverter'] as const).map((v) => ({ value: v, label: t(`firmwareLogging.type.${v}`) }))}
        aria-label={t('firmwareLogging.typeLabel')}
        data-testid="firmware-log-type"
        className={ui.gapBelow}
      />
      {logs.isPending ? (
        <Skeleton active data-testid="firmware-log-loading" />
      ) : logs.isError ? (
        <PageError error={logs.error} onRetry={() => void logs.refetch()} />
      ) : logs.data.total === 0 ? (
        <Empty description={t('firmwareLogging.empty')} className={ui.emptyTall} data-testid="firmware-log-empty" />
      ) : (
        <>
          <List
            dataSource={logs.data.list}
            split={false}
            data-testid="firmware-log-list"
            renderItem={(f) => (
              <List.Item key={f.id} data-testid={`firmware-log-${f.id}`}>
                <Card size="small" className={styles.releaseCard}>
                  <Flex gap={8} align="center" wrap>
                    <Typography.Text strong>{f.productName}</Typography.Text>
                    <Tag>{t(`firmwareLogging.type.${f.type}`)}</Tag>
                    <Typography.Text className={ui.mono}>{f.version}</Typography.Text>
                    <Typography.Text type="secondary" className={ui.note}>
                      {day(f.publishedAt)}
                    </Typography.Text>
                  </Flex>
                  <div className={styles.releaseNotes}>{f.changeLog}</div>
                </Card>
              </List.Item>
            )}
          />
          <Pagination
            current={page}
            pageSize={SIZE}
            total={logs.data.total}
            onChange={setPage}
            showSizeChanger={false}
            hideOnSinglePage
            align="center"
          />
        </>
      )}
    </StaticLayout>
  );
}
