/**
 * The signed-in shell: fetches the profile (interface language) and the granted
 * permission tree once, applies the company colour and the profile's temperature unit, builds the menu routes, and lays out the
 * collapsible side menu, the top bar, the page and the footer.
 */
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { account, defaultThemeColor } from '@sunfleet/contracts';
import { Button, Flex, Layout } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client.ts';
import { usePermissionTree, useProfile } from '../../api/hooks.ts';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';
import { PageError, PageLoading } from '../../components/PageState.tsx';
import ui from '../../components/ui.module.css';
import { setTemperatureUnit } from '../../lib/format.ts';
import { applyFavicon, faviconFor } from '../brands.ts';
import { buildRoutes } from '../buildRoutes.ts';
import { beginNavigationWork } from '../navigationActivity.ts';
import { menuRoutes, notFoundRoute } from '../routes.tsx';
import { useThemeColor } from '../theme.tsx';
import { BrandMark } from './BrandMark.tsx';
import { ShellRoutes } from './ShellRoutes.tsx';
import { SideMenu } from './SideMenu.tsx';
import styles from './shell.module.css';
import { ShellContext, type ShellInfo } from './shellContext.ts';
import { UserMenu } from './UserMenu.tsx';

const COLLAPSED_KEY = 'menuCollapsed';

export default function ShellLayout() {
  const { t } = useTranslation();
  const profile = useProfile();
  const permissions = usePermissionTree();
  const { setColor, brand } = useThemeColor();
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSED_KEY) === '1');
  const loading = profile.isPending || permissions.isPending;

  useEffect(() => (loading ? beginNavigationWork() : undefined), [loading]);
  const companyColor = profile.data?.company?.themeColor;
  useEffect(() => {
    if (profile.data) setColor(companyColor ?? brand.primaryColor ?? defaultThemeColor);
  }, [profile.data, companyColor, brand.primaryColor, setColor]);
  const favicon = faviconFor(brand, profile.data?.company);
  useEffect(() => {
    if (favicon === brand.favicon) return;
    applyFavicon(favicon);
    return () => applyFavicon(brand.favicon);
  }, [favicon, brand.favicon]);

  const shell = useMemo<ShellInfo | null>(() => {
    if (!profile.data || !permissions.data) return null;
    // Temperatures are shown in the profile's unit from the first page drawn in the shell on.
    setTemperatureUnit(profile.data.temperatureUnit);
    const { kind, readOnly } = profile.data;
    const inCompany = kind === 'company_admin' || kind === 'company_user';
    return { profile: profile.data, ...buildRoutes(menuRoutes, permissions.data, notFoundRoute, readOnly, inCompany) };
  }, [profile.data, permissions.data]);

  if (loading) return <PageLoading fullPage />;
  if (!shell) {
    return (
      <Flex align="center" justify="center" className={styles.page}>
        <PageError
          error={profile.error ?? permissions.error}
          onRetry={() => {
            void profile.refetch();
            void permissions.refetch();
          }}
        />
      </Flex>
    );
  }

  const toggle = () => {
    localStorage.setItem(COLLAPSED_KEY, collapsed ? '0' : '1');
    setCollapsed(!collapsed);
  };
  return (
    <ShellContext.Provider value={shell}>
      <Layout className={styles.page}>
        <Layout.Sider
          collapsible
          collapsed={collapsed}
          trigger={null}
          width={232}
          theme={brand.dark ? 'dark' : 'light'}
          className={styles.sider}
        >
          <Flex vertical className={ui.fill}>
            <BrandMark
              profile={shell.profile}
              collapsed={collapsed}
              brandLogo={brand.logo}
              brandIcon={brand.favicon}
              title={brand.title}
            />
            <SideMenu routes={shell.routes} collapsed={collapsed} dark={brand.dark} />
          </Flex>
        </Layout.Sider>
        <Layout>
          <Layout.Header className={styles.header}>
            <Flex align="center" justify="space-between" className={ui.fill}>
              <Button
                type="text"
                icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                onClick={toggle}
                aria-label={t(collapsed ? 'shell.expandMenu' : 'shell.collapseMenu')}
                data-testid="menu-toggle"
              />
              <Flex align="center" gap={8}>
                <LanguageSwitch
                  onSave={
                    shell.profile.readOnly
                      ? undefined
                      : (language) => call(account.updateUser, { params: { id: shell.profile.id }, body: { language } })
                  }
                />
                <UserMenu profile={shell.profile} />
              </Flex>
            </Flex>
          </Layout.Header>
          <Layout.Content className={styles.content}>
            <ShellRoutes routes={shell.routes} forbidden={shell.forbidden} buttons={shell.buttons} />
          </Layout.Content>
          <Layout.Footer className={styles.footer} data-testid="footer">
            {t('footer', { year: new Date().getFullYear() })}
          </Layout.Footer>
        </Layout>
      </Layout>
    </ShellContext.Provider>
  );
}
