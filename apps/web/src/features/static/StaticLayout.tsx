/** The frame of the public information pages: brand bar with language switch, content card. */
import { Card, Flex, Layout } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentBrand } from '../../app/brands.ts';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';
import styles from './static.module.css';

/** `narrow`: a short message (640 px) instead of a text (880 px). */
export function StaticLayout({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  const { t } = useTranslation();
  return (
    <Layout className={styles.page}>
      <Layout.Header className={styles.header}>
        <Link to="/" aria-label={currentBrand.title}>
          <img src={currentBrand.logo} alt={currentBrand.title} width={152} height={40} className={styles.logo} />
        </Link>
        <LanguageSwitch />
      </Layout.Header>
      <Layout.Content className={styles.content}>
        <Flex justify="center">
          <Card className={narrow ? `${styles.card} ${styles.narrow}` : styles.card}>{children}</Card>
        </Flex>
      </Layout.Content>
      <Layout.Footer className={styles.footer}>{t('footer', { year: new Date().getFullYear() })}</Layout.Footer>
    </Layout>
  );
}
