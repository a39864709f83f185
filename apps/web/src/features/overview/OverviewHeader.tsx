/** The overview's header: name, status, type, address, local time and zone, capacity, actions. */
import { ArrowLeftOutlined, ClockCircleOutlined, EditOutlined, EnvironmentOutlined } from '@ant-design/icons';
import { type DataOf, plantsApi } from '@sunfleet/contracts';
import { Button, Card, Flex, Space, Tag, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/PageTitle.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { utcOffset, zonedDateTime } from '../../lib/dateNav.ts';
import { formatCapacity } from '../../lib/format.ts';
import { statusStyle } from '../../lib/statusColours.ts';
import styles from './overview.module.css';

type Plant = DataOf<typeof plantsApi.getPlant>;

/** The plant's wall clock, ticking every 20 s. */
function useClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 20_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function OverviewHeader({
  plant,
  status,
  timezone,
  actions,
}: {
  plant: Plant;
  status: Plant['status'];
  timezone: string;
  actions: ReactNode;
}) {
  const { t } = useTranslation('overview');
  const navigate = useNavigate();
  const may = useMayCall();
  const now = useClock();
  return (
    <Card size="small" data-testid="overview-header">
      <Flex justify="space-between" align="flex-start" gap={12} wrap>
        <Flex gap={12} align="flex-start" className={styles.headerMain}>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            aria-label={t('header.back')}
            title={t('header.back')}
            onClick={() => navigate('/plants')}
          />
          <Flex vertical gap={4} className={ui.shrink}>
            <Flex align="center" gap={10} wrap>
              <PageTitle testId="overview-name">{plant.name}</PageTitle>
              <Tag color={statusStyle[status].tag} className={ui.noGapAfter} data-testid="overview-status">
                {t(`plants:status.${status}`)}
              </Tag>
              <Tag data-testid="overview-type">{t(`plants:types.${plant.type}`)}</Tag>
            </Flex>
            <Space size={16} wrap className={styles.headerFacts}>
              <Typography.Text type="secondary" data-testid="overview-capacity">
                {t('header.capacity')}: <Typography.Text strong>{formatCapacity(plant.capacity)}</Typography.Text>
              </Typography.Text>
              <Typography.Text type="secondary" data-testid="overview-clock">
                <ClockCircleOutlined /> {zonedDateTime(now, timezone)} ({timezone}, {utcOffset(timezone, now)})
              </Typography.Text>
              {plant.address && (
                <Typography.Text type="secondary" ellipsis className={styles.address} data-testid="overview-address">
                  <EnvironmentOutlined /> {plant.address}
                </Typography.Text>
              )}
            </Space>
          </Flex>
        </Flex>
        <Space wrap>
          {may(plantsApi.editPlant, plant.canEdit) && (
            <Button icon={<EditOutlined />} onClick={() => navigate(`/plants/edit/${plant.id}`)} data-testid="overview-edit">
              {t('header.edit')}
            </Button>
          )}
          {actions}
        </Space>
      </Flex>
    </Card>
  );
}
