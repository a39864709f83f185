/** Plants per status (overview/plantCount); a card filters the list by its status, "All" clears it. */
import { type DataOf, plantsApi } from '@sunfleet/contracts';
import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { statusStyle } from '../lib/palette.ts';
import { CountCard } from './CountCard.tsx';
import { usePalette } from './palette.ts';
import ui from './ui.module.css';

type PlantStatusName = plantsApi.PlantStatusName;

type Counts = DataOf<typeof plantsApi.overviewPlantCount>;

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
  const palette = usePalette();
  const cards: Array<{ key: PlantStatusName | 'total'; color: string }> = [
    { key: 'total', color: token.colorPrimary },
    ...plantsApi.plantStatuses.map((s) => ({ key: s, color: palette.meaning[statusStyle[s].meaning] })),
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
