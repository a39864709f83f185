/**
 * The portal's connection to the utility's programme server (VTN): whether the portal is
 * registered there, when the portal last checked (relative, and the time in the browser's zone),
 * and what the last check failed on. The portal checks on every upkeep and registers again when
 * the server lost it.
 */
import type { DataOf, demandResponseApi } from '@sunfleet/contracts';
import { Alert, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { relativeTime } from '../../lib/format.ts';
import { browserZone, formatZoned } from '../../lib/zonedTime.ts';
import css from './energyHub.module.css';

type VtnState = NonNullable<DataOf<typeof demandResponseApi.listPrograms>['vtn']>;

function When({ label, at, testId }: { label: string; at: string | null; testId: string }) {
  const { t, i18n } = useTranslation('energyHub');
  return (
    <Typography.Text type="secondary" data-testid={testId}>
      {`${label}: `}
      {at ? (
        <>
          <Typography.Text>{relativeTime(at, i18n.language)}</Typography.Text>
          {` · ${formatZoned(at, browserZone(), i18n.language, { seconds: true })}`}
        </>
      ) : (
        t('vtn.never')
      )}
    </Typography.Text>
  );
}

export function VtnConnection({ vtn }: { vtn: VtnState }) {
  const { t } = useTranslation('energyHub');
  return (
    <section className={css.vtn} aria-label={t('vtn.title')} data-testid="dr-vtn">
      <Flex wrap align="center" gap="small">
        <Typography.Text strong>{t('vtn.title')}</Typography.Text>
        <Tag color={vtn.registered ? 'success' : 'error'} data-testid="dr-vtn-state">
          {t(vtn.registered ? 'vtn.registered' : 'vtn.notRegistered')}
        </Tag>
      </Flex>
      <Flex vertical gap={2} className={css.vtnTimes}>
        <When label={t('vtn.lastCheck')} at={vtn.lastPollAt} testId="dr-vtn-last-check" />
        {vtn.lastError !== null && vtn.lastOkAt !== vtn.lastPollAt && (
          <When label={t('vtn.lastOk')} at={vtn.lastOkAt} testId="dr-vtn-last-ok" />
        )}
        {!vtn.registered && <Typography.Text type="secondary">{t('vtn.notRegisteredHint')}</Typography.Text>}
      </Flex>
      {vtn.lastError !== null && (
        <Alert
          type="warning"
          showIcon
          className={css.gapAbove}
          title={t('vtn.lastError')}
          description={<span className={css.breakWords}>{vtn.lastError}</span>}
          data-testid="dr-vtn-error"
        />
      )}
    </section>
  );
}
