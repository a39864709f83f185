/** The side menu: visible kept routes, the current entry highlighted, its group open. */
import { versionLabel } from '@sunfleet/contracts';
import { Menu, type MenuProps } from 'antd';
import { createElement, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { menuSelection, routeForPath } from '../buildRoutes.ts';
import type { PageRoute } from '../routes.tsx';
import styles from './shell.module.css';

type MenuItem = Required<MenuProps>['items'][number];

function toItems(routes: readonly PageRoute[], t: (key: string) => string): MenuItem[] {
  return routes
    .filter((r) => !r.hidden && r.path !== '*')
    .map((r) => {
      const visibleChildren = r.children?.filter((c) => !c.hidden) ?? [];
      return {
        key: r.path,
        icon: r.icon ? createElement(r.icon) : undefined,
        label: t(r.titleKey),
        ...(visibleChildren.length ? { children: toItems(visibleChildren, t) } : {}),
      };
    });
}

export function SideMenu({ routes, collapsed, dark }: { routes: PageRoute[]; collapsed: boolean; dark: boolean }) {
  const { t } = useTranslation('menu');
  const location = useLocation();
  const navigate = useNavigate();
  const items = useMemo(() => toItems(routes, t), [routes, t]);
  const selection = useMemo(() => menuSelection(routes, routeForPath(routes, location.pathname)), [routes, location.pathname]);
  const [openKeys, setOpenKeys] = useState<string[]>(selection.open);
  useEffect(() => {
    setOpenKeys((keys) => [...new Set([...keys, ...selection.open])]);
  }, [selection.open]);

  return (
    <div className={styles.menuColumn}>
      <Menu
        data-testid="side-menu"
        mode="inline"
        theme={dark ? 'dark' : 'light'}
        items={items}
        selectedKeys={selection.selected}
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
        onClick={({ key }) => navigate(key)}
        className={styles.menu}
      />
      <div data-testid="version-label" className={dark ? `${styles.version} ${styles.versionDark}` : styles.version}>
        {versionLabel}
      </div>
    </div>
  );
}
