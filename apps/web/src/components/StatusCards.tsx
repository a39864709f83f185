/**
 * Plants per status (overview/plantCount), or devices per state; a card filters the list by its
 * status, "All" clears it.
 */
import { type DeviceStateName, plantsApi } from '@sunfleet/contracts';
import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { deviceStateStyle } from '../lib/statusColours.ts';
import { CountCard } from './CountCard.tsx';
import { usePalette } from './palette.ts';
import ui from './ui.module.css';

type PlantStatusName = plantsApi.PlantStatusName;

export function StatusCards<S extends DeviceStateName = PlantStatusName>({
  counts,
  loading,
  status,
  onStatus,
  allLabel,
  statusLabel,
  statuses = plantsApi.plantStatuses as readonly DeviceStateName[] as readonly S[],
}: {
  counts: ({ total: number } & Partial<Record<S, number>>) | undefined;
  loading: boolean;
  status: S | undefined;
  onStatus: (status: S | undefined) => void;
  /** The "all" card's label (default "All plants"; the device lists name their kind). */
  allLabel?: string;
  /** The status cards' labels (default the plant statuses' words). */
  statusLabel?: (status: S) => string;
  /** The cards after "All" (default the plant statuses; an inverter list adds off). */
  statuses?: readonly S[];
}) {
  const { t } = useTranslation('plants');
  const { token } = theme.useToken();
  const palette = usePalette();
  const cards: Array<{ key: S | 'total'; color: string }> = [
    { key: 'total', color: token.colorPrimary },
    ...statuses.map((s) => ({ key: s, color: palette.meaning[deviceStateStyle[s].meaning] })),
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
