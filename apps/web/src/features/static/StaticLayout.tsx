/** The frame of the public information pages: brand bar with language switch, content card. */
import { Card, Flex, Layout, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentBrand } from '../../app/brands.ts';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';

export function StaticLayout({ children, maxWidth = 880 }: { children: ReactNode; maxWidth?: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          padding: '0 16px',
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Link to="/" aria-label={currentBrand.title}>
          <img src={currentBrand.logo} alt={currentBrand.title} style={{ height: 40, display: 'block' }} />
        </Link>
        <LanguageSwitch />
      </Layout.Header>
      <Layout.Content style={{ padding: 16 }}>
        <Flex justify="center">
          <Card style={{ width: '100%', maxWidth }}>{children}</Card>
        </Flex>
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center', color: token.colorTextTertiary }}>
        {t('footer', { year: new Date().getFullYear() })}
      </Layout.Footer>
    </Layout>
  );
}
