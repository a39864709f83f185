/**
 * Plant transfers waiting for an answer: those offered to the caller (accept, decline) and those
 * the caller made (cancel). Each step asks for confirmation first; 404 and 705 (no longer
 * pending) show as a note and the list is read again. A mail's link opens this page with `?id=`,
 * which marks that request. A read-only account sees the requests without the buttons.
 */
import { type DataOf, plantsApi } from '@sunfleet/contracts';
import { Alert, App, Button, Card, Flex, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { PageError, PageLoading } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { formatDateTime } from '../../lib/format.ts';
import { useInvalidateTransfers, usePendingTransfers } from './transferQueries.ts';

type Transfer = DataOf<typeof plantsApi.listPlantTransfers>['offered'][number];
type Step = 'accept' | 'decline' | 'cancel';

const calls = {
  accept: plantsApi.acceptPlantTransfer,
  decline: plantsApi.declinePlantTransfer,
  cancel: plantsApi.cancelPlantTransfer,
} as const;

export default function TransfersPage() {
  const { t } = useTranslation('plants');
  const { message, modal } = App.useApp();
  const [params] = useSearchParams();
  const marked = Number(params.get('id')) || null;
  const query = usePendingTransfers();
  const invalidate = useInvalidateTransfers();
  const accept = useApiMutation(calls.accept);
  const decline = useApiMutation(calls.decline);
  const cancel = useApiMutation(calls.cancel);
  const mutations = { accept, decline, cancel };
  // A read-only account sees the requests but cannot answer them.
  const may = useMayCall();

  const run = async (step: Step, item: Transfer) => {
    try {
      await mutations[step].mutateAsync({ params: { id: item.id } });
      message.success(t(`transfers.${step}Done`, { name: item.plantName }));
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) message.warning(t('transfers.gone'));
    }
    await invalidate();
  };

  const confirm = (step: Step, item: Transfer) =>
    modal.confirm({
      title: t(`transfers.${step}Title`, { name: item.plantName }),
      content: t(`transfers.${step}Text`, {
        name: item.plantName,
        account: step === 'cancel' ? item.toAccount : item.fromAccount,
      }),
      okText: t(`transfers.${step}`),
      okButtonProps: { danger: step !== 'accept', 'data-testid': 'transfer-step-ok' },
      cancelText: t('common:cancel'),
      onOk: () => run(step, item),
    });

  const item = (side: 'offered' | 'sent') => (x: Transfer) => {
    const steps = (side === 'offered' ? (['accept', 'decline'] as const) : (['cancel'] as const)).filter((step) =>
      may(calls[step]),
    );
    return (
      <List.Item data-testid={`transfer-${x.id}`} data-marked={x.id === marked || undefined}>
        <Flex vertical gap={4} className={ui.fill}>
          <Typography.Text strong>
            {x.plantName} {x.id === marked && <Tag color="processing">{t('transfers.fromMail')}</Tag>}
          </Typography.Text>
          <Typography.Text type="secondary">
            {side === 'offered' ? t('transfers.from', { account: x.fromAccount }) : t('transfers.to', { account: x.toAccount })}
          </Typography.Text>
          <Typography.Text type="secondary">{t('transfers.expires', { time: formatDateTime(x.expiresAt) })}</Typography.Text>
          <Flex gap={8} wrap>
            {steps.map((step) => (
              <Button
                key={step}
                type={step === 'accept' ? 'primary' : 'default'}
                danger={step !== 'accept'}
                onClick={() => confirm(step, x)}
                data-testid={`transfer-${step}-${x.id}`}
              >
                {t(`transfers.${step}`)}
              </Button>
            ))}
          </Flex>
        </Flex>
      </List.Item>
    );
  };

  return (
    <div data-testid="transfers-page">
      <PageTitle>{t('transfers.title')}</PageTitle>
      <Alert type="info" showIcon title={t('transfers.intro')} className={ui.gapBelow} />
      {query.isPending ? (
        <PageLoading />
      ) : query.isError ? (
        <PageError error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <Flex vertical gap={16}>
          <Card title={t('transfers.offered')} size="small">
            <List
              dataSource={query.data.offered}
              renderItem={item('offered')}
              // The list's own empty text is drawn too faint to read (axe: colour contrast); the secondary text colour is not.
              locale={{ emptyText: <Typography.Text type="secondary">{t('transfers.noneOffered')}</Typography.Text> }}
              data-testid="transfers-offered"
            />
          </Card>
          <Card title={t('transfers.sent')} size="small">
            <List
              dataSource={query.data.sent}
              renderItem={item('sent')}
              locale={{ emptyText: <Typography.Text type="secondary">{t('transfers.noneSent')}</Typography.Text> }}
              data-testid="transfers-sent"
            />
          </Card>
        </Flex>
      )}
    </div>
  );
}
