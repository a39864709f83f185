/** One count card: a pressed-state button with a coloured edge (plant statuses, device states, event levels). */

import { Skeleton, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { formatNumber } from '../lib/format.ts';
import styles from './CountCard.module.css';

export function CountCard({
  label,
  value,
  color,
  active,
  loading,
  testId,
  valueTestId,
  wide = false,
  onClick,
}: {
  label: string;
  value: number | null;
  color: string;
  active: boolean;
  loading: boolean;
  testId: string;
  valueTestId?: string;
  /** A little wider (the event levels). */
  wide?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      data-testid={testId}
      onClick={onClick}
      className={wide ? `${styles.card} ${styles.wide}` : styles.card}
      style={{ '--accent': color } as CSSProperties}
    >
      <Typography.Text type="secondary" className={styles.label}>
        {label}
      </Typography.Text>
      {loading ? (
        <Skeleton.Button active size="small" className={styles.skeleton} />
      ) : (
        <Typography.Text strong className={styles.value} data-testid={valueTestId}>
          {formatNumber(value)}
        </Typography.Text>
      )}
    </button>
  );
}
