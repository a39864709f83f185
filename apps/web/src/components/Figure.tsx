/** A figure of a card: a small label over a large value (a tooltip may explain it). */
import { Flex, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import parts from './parts.module.css';
import ui from './ui.module.css';

export function Figure({ label, value, testId, hint }: { label: ReactNode; value: ReactNode; testId: string; hint?: string }) {
  return (
    <Flex vertical className={ui.shrink}>
      <Typography.Text type="secondary" className={ui.note} ellipsis>
        {label}
      </Typography.Text>
      <Tooltip title={hint}>
        <Typography.Text strong className={parts.figure} data-testid={testId}>
          {value}
        </Typography.Text>
      </Tooltip>
    </Flex>
  );
}
