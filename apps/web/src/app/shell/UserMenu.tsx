/** The user menu: account settings (when the caller may open that page: not a read-only account) and sign-out. */
import { LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOut } from '../../api/signOut.ts';
import { flattenRoutes } from '../buildRoutes.ts';
import styles from './shell.module.css';
import { type UserProfile, useShell } from './shellContext.ts';

export function UserMenu({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const settings = flattenRoutes(useShell().routes).some((r) => r.path === '/edit');
  const items: MenuProps['items'] = [
    ...(settings
      ? [{ key: 'edit', icon: <SettingOutlined />, label: <span data-testid="account-settings">{t('user.settings')}</span> }]
      : []),
    { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="logout">{t('user.logout')}</span> },
  ];
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        onClick: ({ key }) => {
          if (key === 'edit') navigate('/edit');
          else void signOut();
        },
      }}
    >
      <Button type="text" data-testid="user-menu" className={styles.userButton}>
        <Avatar size="small" src={profile.avatar ?? undefined} icon={<UserOutlined />} />
        <span className={styles.userName}>{profile.nickname || profile.account}</span>
      </Button>
    </Dropdown>
  );
}
