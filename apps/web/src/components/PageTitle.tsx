/** The heading of a page (or of a plant or device), level 4, in line with the page's toolbar. */
import { Typography } from 'antd';
import type { ReactNode } from 'react';
import styles from './PageTitle.module.css';

export function PageTitle({ children, testId = 'page-title' }: { children: ReactNode; testId?: string }) {
  return (
    <Typography.Title level={4} className={styles.title} data-testid={testId}>
      {children}
    </Typography.Title>
  );
}
