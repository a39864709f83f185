/** A clean placeholder for menu pages that later issues build: the page title and "coming soon". */
import { Card, Empty, Flex } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePage } from '../app/pageContext.ts';
import { PageTitle } from './PageTitle.tsx';
import ui from './ui.module.css';

export function ComingSoon({ actions }: { actions?: ReactNode }) {
  const { route } = usePage();
  const { t } = useTranslation();
  return (
    <Card>
      <Flex justify="space-between" align="center" gap={16} wrap>
        <PageTitle>{route ? t(`menu:${route.titleKey}`) : ''}</PageTitle>
        {actions}
      </Flex>
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('state.comingSoon')} className={ui.emptyTall} />
    </Card>
  );
}

export default function ComingSoonPage() {
  return <ComingSoon />;
}
