/** An event's text over its code (secondary), the full text and the suggested action in a tooltip. */
import { BulbOutlined } from '@ant-design/icons';
import { Flex, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import ui from './ui.module.css';

export function EventText({
  text,
  code,
  action,
  actionLabel,
  testId,
  after,
}: {
  text: string;
  code: string;
  action: string | null | undefined;
  /** "Suggested action", in the page's language. */
  actionLabel: string;
  testId: string;
  /** Shown after the text, on its line (a battery pack's number). */
  after?: ReactNode;
}) {
  return (
    <Tooltip
      title={
        <>
          <div>{text}</div>
          {action && (
            <div>
              <BulbOutlined /> {actionLabel}: {action}
            </div>
          )}
        </>
      }
    >
      <Flex vertical className={ui.shrink} data-testid={testId}>
        <Typography.Text ellipsis>
          {text}
          {after}
        </Typography.Text>
        <Typography.Text type="secondary" ellipsis className={`${ui.note} ${ui.mono}`}>
          {code}
        </Typography.Text>
      </Flex>
    </Tooltip>
  );
}
