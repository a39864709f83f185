/**
 * The account's own plants (owned or shared with it) by status, and their open events by level
 * (`user/{id}/plantCount`, `user/{id}/eventCount`).
 */
import { plantsApi } from '@sunfleet/contracts';
import { Flex, Skeleton, Statistic, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/hooks.ts';
import { formatNumber } from '../../lib/format.ts';
import { levelStyle, statusStyle } from '../../lib/statusColours.ts';

export function MyPlants({ userId }: { userId: number }) {
  const { t } = useTranslation('account');
  const plants = useApiQuery(plantsApi.userPlantCount, { params: { id: userId }, quiet: true });
  const events = useApiQuery(plantsApi.userEventCount, { params: { id: userId }, quiet: true });
  if (plants.isPending || events.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (!plants.data || !events.data) return null;
  return (
    <Flex vertical gap={12} data-testid="my-plants">
      <Flex gap={24} wrap>
        <Statistic title={t('myPlants.plants')} value={formatNumber(plants.data.total)} />
        <Statistic title={t('myPlants.openEvents')} value={formatNumber(events.data.total)} />
      </Flex>
      <Flex gap={6} wrap>
        {plantsApi.plantStatuses.map((s) => (
          <Tag key={s} color={statusStyle[s].tag} data-testid={`my-plants-${s}`}>
            {t(`plants:status.${s}`)}: {formatNumber(plants.data[s])}
          </Tag>
        ))}
      </Flex>
      <Flex gap={6} wrap>
        <Tag color={levelStyle.fault.tag} data-testid="my-plants-faults">
          {t('myPlants.faults')}: {formatNumber(events.data.fault)}
        </Tag>
        <Tag color={levelStyle.warning.tag} data-testid="my-plants-warnings">
          {t('myPlants.warnings')}: {formatNumber(events.data.warning)}
        </Tag>
        <Link to="/plants">{t('myPlants.open')}</Link>
      </Flex>
    </Flex>
  );
}
