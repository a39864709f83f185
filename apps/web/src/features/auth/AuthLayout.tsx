/** The frame of the signed-out pages: brand logo, a centred card, language switch, footer links. */
import { ConfigProvider, Flex, Layout, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Brand, currentBrand } from '../../app/brands.ts';
import { brandTheme } from '../../app/theme.tsx';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';
import styles from './auth.module.css';

function Frame({ brand, title, subtitle, children }: AuthLayoutProps & { brand: Brand }) {
  const { t } = useTranslation('auth');
  return (
    <Layout className={brand.dark ? `${styles.frame} ${styles.frameDark}` : styles.frame}>
      <Flex justify="flex-end" className={styles.topBar}>
        <LanguageSwitch />
      </Flex>
      <Flex vertical align="center" justify="center" className={styles.column}>
        <img src={brand.logo} alt={brand.title} width={220} height={58} className={styles.logo} data-testid="brand-logo" />
        {/* A plain panel: antd Card would bring its tabs code to the first route. */}
        <section className={styles.card}>
          <Typography.Title level={3} className={subtitle ? `${styles.title} ${styles.titleAboveSubtitle}` : styles.title}>
            {title}
          </Typography.Title>
          {subtitle && (
            <Typography.Paragraph type="secondary" className={styles.subtitle}>
              {subtitle}
            </Typography.Paragraph>
          )}
          {children}
        </section>
      </Flex>
      <Flex vertical align="center" gap={4} className={styles.footer}>
        <Space size="middle" wrap className={styles.links}>
          <Link to="/agreement">{t('links.agreement')}</Link>
          <Link to="/app/download">{t('links.appDownload')}</Link>
          <Link to="/firmwareLogging">{t('links.firmwareLogging')}</Link>
        </Space>
        <span>{t('common:footer', { year: new Date().getFullYear() })}</span>
      </Flex>
    </Layout>
  );
}

interface AuthLayoutProps {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Another brand than the host's (the partner login page). */
  brand?: Brand;
}

export function AuthLayout({ brand, ...props }: AuthLayoutProps) {
  if (!brand || brand === currentBrand) return <Frame brand={currentBrand} {...props} />;
  return (
    <ConfigProvider theme={brandTheme(brand, brand.primaryColor)}>
      <Frame brand={brand} {...props} />
    </ConfigProvider>
  );
}
