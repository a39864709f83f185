/** Events per level with the other filters; a card filters the list by its level, "All" clears it. */
import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LevelCounts } from '../lib/events.ts';
import { type Level, levels } from '../lib/events.ts';
import { levelStyle } from '../lib/statusColours.ts';
import { CountCard } from './CountCard.tsx';
import { usePalette } from './palette.ts';
import ui from './ui.module.css';

export function LevelCards({
  counts,
  loading,
  level,
  onLevel,
}: {
  counts: LevelCounts | undefined;
  loading: boolean;
  level: Level | undefined;
  onLevel: (level: Level | undefined) => void;
}) {
  const { t } = useTranslation('events');
  const { token } = theme.useToken();
  const palette = usePalette();
  const cards: Array<{ key: Level | 'total'; color: string }> = [
    { key: 'total', color: token.colorPrimary },
    ...levels.map((l) => ({ key: l, color: palette.meaning[levelStyle[l].meaning] })),
  ];
  return (
    <Flex gap={12} wrap className={ui.gapBelow} role="group" aria-label={t('columns.level')}>
      {cards.map(({ key, color }) => {
        const active = key === 'total' ? level === undefined : level === key;
        return (
          <CountCard
            key={key}
            label={t(`levels.${key === 'total' ? 'all' : key}`)}
            value={counts ? counts[key] : null}
            color={color}
            active={active}
            loading={loading}
            testId={`level-card-${key}`}
            valueTestId={`level-count-${key}`}
            wide
            onClick={() => onLevel(key === 'total' || active ? undefined : key)}
          />
        );
      })}
    </Flex>
  );
}
