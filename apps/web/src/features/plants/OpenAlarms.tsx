/** Open events of the visible plants by level (overview/eventCount), beside the status cards. */
import { AlertOutlined } from '@ant-design/icons';
import { plantsApi } from '@sunfleet/contracts';
import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/hooks.ts';
import ui from '../../components/ui.module.css';
import { formatNumber } from '../../lib/format.ts';
import { levelStyle } from '../../lib/statusColours.ts';

export function OpenAlarms({ refreshMs }: { refreshMs: number }) {
  const { t } = useTranslation('plants');
  const counts = useApiQuery(plantsApi.overviewEventCount, { quiet: true }, { refetchInterval: refreshMs });
  if (!counts.data) return null;
  const { total, fault, warning, info } = counts.data;
  return (
    <Flex align="center" gap={8} wrap className={ui.gapBelowSm} data-testid="open-alarms">
      <Typography.Text type="secondary">
        <AlertOutlined /> {t('alarms.open', { count: total })}
      </Typography.Text>
      <Tag color={levelStyle.fault.tag} data-testid="open-alarms-fault">
        {t('alarms.fault')}: {formatNumber(fault)}
      </Tag>
      <Tag color={levelStyle.warning.tag} data-testid="open-alarms-warning">
        {t('alarms.warning')}: {formatNumber(warning)}
      </Tag>
      <Tag color={levelStyle.info.tag} data-testid="open-alarms-info">
        {t('alarms.info')}: {formatNumber(info)}
      </Tag>
      {total > 0 && <Link to="/device/event?state=open">{t('alarms.show')}</Link>}
    </Flex>
  );
}
