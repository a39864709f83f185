/**
 * Devices of the plant: what is attached (gateways, inverters, batteries, meters, weather
 * stations), the inverters by state (off while powered off, as their badges), the open events by
 * level, and the first inverters with their state and power now.
 */
import { ControlOutlined } from '@ant-design/icons';
import { deviceStates } from '@sunfleet/contracts';
import { Badge, Card, Divider, Empty, Flex, Skeleton, Tag, Typography } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CardError } from '../../components/CardState.tsx';
import ui from '../../components/ui.module.css';
import { stateName } from '../../lib/deviceNames.ts';
import { formatEnergy, formatWatts } from '../../lib/format.ts';
import { deviceStateStyle } from '../../lib/statusColours.ts';
import styles from './overview.module.css';
import { useDeviceCheck, useEventCount, useInverterCount, useInverters } from './overviewQueries.ts';

export const levelColor = { fault: 'error', warning: 'warning', info: 'processing' } as const;

function Count({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <Flex vertical align="center" className={ui.shrink}>
      <Typography.Text strong className={styles.count} data-testid={testId}>
        {value ?? '--'}
      </Typography.Text>
      <Typography.Text type="secondary" className={styles.countLabel}>
        {label}
      </Typography.Text>
    </Flex>
  );
}

export const DevicesCard = memo(function DevicesCard({ plantId }: { plantId: number }) {
  const { t, i18n } = useTranslation('overview');
  const check = useDeviceCheck(plantId);
  const inverters = useInverterCount(plantId);
  const events = useEventCount(plantId);
  const list = useInverters(plantId);
  const pending = check.isPending || inverters.isPending || events.isPending;
  const failing = [check, inverters, events].find((q) => q.isError && !q.data);

  return (
    <Card size="small" title={t('devices.title')} className={ui.fill} data-testid="devices-card">
      {pending ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : failing ? (
        <CardError
          error={failing.error}
          onRetry={() => {
            void check.refetch();
            void inverters.refetch();
            void events.refetch();
          }}
          testId="devices-error"
        />
      ) : (
        <Flex vertical gap={8}>
          <div className={styles.countGrid}>
            <Count label={t('devices.gateways')} value={check.data?.gateways} testId="devices-gateways" />
            <Count label={t('devices.inverters')} value={check.data?.inverters} testId="devices-inverters" />
            <Count label={t('devices.batteries')} value={check.data?.batteries} testId="devices-batteries" />
            <Count label={t('devices.meters')} value={check.data?.meters} testId="devices-meters" />
            <Count label={t('devices.weather')} value={check.data?.weather} testId="devices-weather" />
          </div>
          <Divider className={styles.divider} />
          <Typography.Text type="secondary" className={ui.note}>
            {t('devices.inverterStatus')}
          </Typography.Text>
          <Flex gap={12} wrap data-testid="devices-inverter-status">
            {deviceStates.map((s) => (
              <Badge
                key={s}
                status={deviceStateStyle[s].badge}
                text={`${stateName(s, i18n.language)} ${inverters.data?.[s] ?? 0}`}
                data-testid={`inverters-${s}`}
              />
            ))}
          </Flex>
          <Typography.Text type="secondary" className={ui.note}>
            {t('devices.openEvents')}
          </Typography.Text>
          <Flex gap={6} wrap data-testid="devices-event-levels">
            {(['fault', 'warning', 'info'] as const).map((level) => (
              <Tag key={level} color={levelColor[level]} data-testid={`events-${level}`}>
                {t(`events.levels.${level}`)} {events.data?.[level] ?? 0}
              </Tag>
            ))}
          </Flex>
          <Divider className={styles.divider} />
          {list.data && list.data.list.length > 0 ? (
            // A plain list: antd List would bring its pagination (and Select) to the overview.
            <ul className={styles.inverterList} data-testid="devices-inverter-list">
              {list.data.list.map((inv) => (
                <li key={inv.sn} className={styles.inverterItem} data-testid={`inverter-${inv.sn}`}>
                  <Flex justify="space-between" className={`${ui.fullWidth} ${ui.shrink}`} gap={8}>
                    <Badge
                      status={deviceStateStyle[inv.state].badge}
                      title={stateName(inv.state, i18n.language)}
                      data-testid={`inverter-state-${inv.sn}`}
                      data-state={inv.state}
                      text={
                        <Link to={`/device/inverter/${encodeURIComponent(inv.sn)}`} data-testid={`inverter-link-${inv.sn}`}>
                          <Typography.Text ellipsis className={styles.inverterName} title={inv.sn}>
                            {inv.alias || inv.sn}
                          </Typography.Text>
                        </Link>
                      }
                    />
                    <Flex gap={8} align="center">
                      <Typography.Text type="secondary" className={ui.nowrap}>
                        {formatWatts(inv.power)} · {formatEnergy(inv.todayEnergy)}
                      </Typography.Text>
                      <Link
                        to={`/plants/device/setting?plantId=${plantId}&sn=${encodeURIComponent(inv.sn)}`}
                        aria-label={t('devices.settings', { name: inv.alias || inv.sn })}
                        title={t('devices.settings', { name: inv.alias || inv.sn })}
                        data-testid={`inverter-settings-${inv.sn}`}
                      >
                        <ControlOutlined />
                      </Link>
                    </Flex>
                  </Flex>
                </li>
              ))}
            </ul>
          ) : list.isPending ? null : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('devices.noInverters')} className={ui.flush} />
          )}
        </Flex>
      )}
    </Card>
  );
});
