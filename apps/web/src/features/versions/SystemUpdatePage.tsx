/**
 * /systemupdate (every signed-in account): the portal's published versions as a timeline, highest
 * first, a page at a time, each with its release notes in the interface language (Chinese notes
 * for Chinese, English otherwise), who published it and when. The system operators
 * (`system.version.edit`) publish, edit and delete here; a delete is confirmed first.
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { versionsApi } from '@sunfleet/contracts';
import { App, Button, Card, Empty, Flex, Pagination, Skeleton, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageError } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { browserZone, formatZoned } from '../../lib/zonedTime.ts';
import { notesFor } from './content.ts';
import { type Version, VersionDialog } from './VersionDialog.tsx';
import { useDeleteVersion, useRefreshVersions, useVersionTimeline } from './versionQueries.ts';
import styles from './versions.module.css';

const SIZE = 10;

export default function SystemUpdatePage() {
  const { t, i18n } = useTranslation('versions');
  const { modal, message } = App.useApp();
  const mayCall = useMayCall();
  const operator = mayCall(versionsApi.saveVersion);
  const mayDelete = mayCall(versionsApi.deleteVersion);
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<{ editing: Version | null } | null>(null);
  const [zone] = useState(browserZone);
  const timeline = useVersionTimeline(page, SIZE);
  const remove = useDeleteVersion();
  const refresh = useRefreshVersions();

  const confirmDelete = (v: Version) =>
    modal.confirm({
      title: t('delete.title', { number: v.number }),
      content: t('delete.content'),
      okText: t('delete.ok'),
      okButtonProps: { danger: true, 'data-testid': 'version-delete-ok' },
      cancelText: t('delete.cancel'),
      onOk: async () => {
        await remove.mutateAsync({ params: { id: v.id } });
        message.success(t('delete.done', { number: v.number }));
        await refresh();
      },
    });

  const list = timeline.data?.list ?? [];
  return (
    <Card data-testid="system-update-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
        <PageTitle>{t('menu:systemUpdate')}</PageTitle>
        {operator && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ editing: null })} data-testid="version-add">
            {t('add')}
          </Button>
        )}
      </Flex>
      {timeline.isPending ? (
        <Skeleton active data-testid="versions-loading" />
      ) : timeline.isError && !timeline.data ? (
        <PageError error={timeline.error} onRetry={() => void timeline.refetch()} />
      ) : list.length === 0 ? (
        <Empty description={t('empty')} className={ui.emptyTall} data-testid="versions-empty" />
      ) : (
        <>
          <Timeline
            data-testid="version-timeline"
            items={list.map((v, i) => ({
              key: v.id,
              color: i === 0 && page === 1 ? 'green' : 'gray',
              children: (
                <div data-testid={`version-${v.id}`}>
                  <Flex gap={8} align="center" wrap>
                    <Typography.Text strong className={ui.mono}>
                      {v.number}
                    </Typography.Text>
                    {i === 0 && page === 1 && <Tag color="green">{t('current')}</Tag>}
                    <Typography.Text type="secondary" className={ui.note}>
                      {t('publishedBy', { who: v.publisher || '--', when: formatZoned(v.publishedAt, zone, i18n.language) })}
                    </Typography.Text>
                    {operator && (
                      <Button
                        size="small"
                        type="text"
                        icon={<EditOutlined />}
                        aria-label={t('edit', { number: v.number })}
                        onClick={() => setDialog({ editing: v })}
                        data-testid={`version-edit-${v.id}`}
                      />
                    )}
                    {mayDelete && (
                      <Button
                        size="small"
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('delete.title', { number: v.number })}
                        onClick={() => confirmDelete(v)}
                        data-testid={`version-delete-${v.id}`}
                      />
                    )}
                  </Flex>
                  <Typography.Paragraph className={styles.notes} data-testid={`version-notes-${v.id}`}>
                    {notesFor(i18n.language, v)}
                  </Typography.Paragraph>
                </div>
              ),
            }))}
          />
          <Pagination
            current={page}
            pageSize={SIZE}
            total={timeline.data?.total ?? 0}
            onChange={setPage}
            hideOnSinglePage
            showSizeChanger={false}
            align="center"
          />
        </>
      )}
      <VersionDialog
        open={dialog !== null}
        editing={dialog?.editing ?? null}
        onClose={() => setDialog(null)}
        onSaved={() => {
          setDialog(null);
          void refresh();
        }}
      />
    </Card>
  );
}
