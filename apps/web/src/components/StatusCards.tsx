/** Plants per status (overview/plantCount); a card filters the list by its status, "All" clears it. */
import { type DataOf, formatNumber, plantsApi } from '@sunfleet/contracts';
import { Flex, Skeleton, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { statusStyle } from '../lib/palette.ts';
import ui from './ui.module.css';

type PlantStatusName = plantsApi.PlantStatusName;

type Counts = DataOf<typeof plantsApi.overviewPlantCount>;

/** One count card: a pressed-state button with a coloured edge (also used by the device lists). */
export function CountCard({
  label,
  value,
  color,
  active,
  loading,
  testId,
  onClick,
}: {
  label: string;
  value: number | null;
  color: string;
  active: boolean;
  loading: boolean;
  testId: string;
  onClick: () => void;
}) {
  const { token } = theme.useToken();
  return (
    <button
      type="button"
      aria-pressed={active}
      data-testid={testId}
      onClick={onClick}
      style={{
        flex: '1 1 130px',
        minWidth: 120,
        maxWidth: 220,
        textAlign: 'left',
        cursor: 'pointer',
        padding: '10px 14px',
        borderRadius: token.borderRadiusLG,
        borderStyle: 'solid',
        borderWidth: '1px 1px 1px 4px',
        borderTopColor: active ? color : token.colorBorderSecondary,
        borderRightColor: active ? color : token.colorBorderSecondary,
        borderBottomColor: active ? color : token.colorBorderSecondary,
        borderLeftColor: color,
        background: active ? token.colorFillTertiary : token.colorBgContainer,
        color: token.colorText,
        font: 'inherit',
      }}
    >
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
        {label}
      </Typography.Text>
      {loading ? (
        <Skeleton.Button active size="small" style={{ width: 48, marginTop: 4 }} />
      ) : (
        <Typography.Text strong style={{ fontSize: 22, lineHeight: '30px' }}>
          {formatNumber(value)}
        </Typography.Text>
      )}
    </button>
  );
}

export function StatusCards({
  counts,
  loading,
  status,
  onStatus,
  allLabel,
  statusLabel,
}: {
  counts: Counts | undefined;
  loading: boolean;
  status: PlantStatusName | undefined;
  onStatus: (status: PlantStatusName | undefined) => void;
  /** The "all" card's label (default "All plants"; the device lists name their kind). */
  allLabel?: string;
  /** The status cards' labels (default the plant statuses' words). */
  statusLabel?: (status: PlantStatusName) => string;
}) {
  const { t } = useTranslation('plants');
  const { token } = theme.useToken();
  const cards: Array<{ key: PlantStatusName | 'total'; color: string }> = [
    { key: 'total', color: token.colorPrimary },
    ...plantsApi.plantStatuses.map((s) => ({ key: s, color: statusStyle[s].color })),
  ];
  return (
    <Flex gap={12} wrap className={ui.gapBelow} role="group" aria-label={t('filters.status')}>
      {cards.map(({ key, color }) => {
        const active = key === 'total' ? status === undefined : status === key;
        const value = typeof counts?.[key] === 'number' ? counts[key] : null;
        return (
          <CountCard
            key={key}
            label={key === 'total' ? (allLabel ?? t('status.all')) : (statusLabel?.(key) ?? t(`status.${key}`))}
            value={value}
            color={color}
            active={active}
            loading={loading}
            testId={`status-card-${key}`}
            onClick={() => onStatus(key === 'total' || active ? undefined : key)}
          />
        );
      })}
    </Flex>
  );
}
