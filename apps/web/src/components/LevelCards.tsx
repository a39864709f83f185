/** Events per level with the other filters; a card filters the list by its level, "All" clears it. */
import { formatNumber } from '@sunfleet/contracts';
import { Flex, Skeleton, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LevelCounts } from '../lib/events.ts';
import { type Level, levels } from '../lib/events.ts';
import { levelStyle } from '../lib/palette.ts';
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
  const cards: Array<{ key: Level | 'total'; color: string }> = [
    { key: 'total', color: token.colorPrimary },
    ...levels.map((l) => ({ key: l, color: levelStyle[l].color })),
  ];
  return (
    <Flex gap={12} wrap className={ui.gapBelow} role="group" aria-label={t('columns.level')}>
      {cards.map(({ key, color }) => {
        const active = key === 'total' ? level === undefined : level === key;
        return (
          <button
            key={key}
            type="button"
            aria-pressed={active}
            data-testid={`level-card-${key}`}
            onClick={() => onLevel(key === 'total' || active ? undefined : key)}
            style={{
              flex: '1 1 150px',
              minWidth: 130,
              maxWidth: 240,
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
              {t(`levels.${key === 'total' ? 'all' : key}`)}
            </Typography.Text>
            {loading ? (
              <Skeleton.Button active size="small" style={{ width: 48, marginTop: 4 }} />
            ) : (
              <Typography.Text strong style={{ fontSize: 22, lineHeight: '30px' }} data-testid={`level-count-${key}`}>
                {formatNumber(counts ? counts[key] : null)}
              </Typography.Text>
            )}
          </button>
        );
      })}
    </Flex>
  );
}
