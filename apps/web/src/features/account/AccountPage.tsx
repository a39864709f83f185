/** /edit: personal account settings. Read-only accounts never reach it (the route's action writes: 403). */
import { Card, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useShell } from '../../app/shell/shellContext.ts';
import { Permission } from '../../components/Permission.tsx';
import { AvatarUpload } from './AvatarUpload.tsx';
import { MyPlants } from './MyPlants.tsx';
import { NotificationSetting } from './NotificationSetting.tsx';
import { PasswordForm } from './PasswordForm.tsx';
import { ProfileForm } from './ProfileForm.tsx';

export default function AccountPage() {
  const { t } = useTranslation('account');
  const { profile } = useShell();
  return (
    <Row gutter={[16, 16]} data-testid="account-page">
      <Col xs={24} xl={14}>
        <Card title={t('profile.title')}>
          <AvatarUpload profile={profile} />
          <ProfileForm profile={profile} />
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <Card title={t('password.title')}>
              <PasswordForm userId={profile.id} />
            </Card>
          </Col>
          <Col span={24}>
            <Card title={t('notify.title')}>
              <NotificationSetting profile={profile} />
            </Card>
          </Col>
          <Permission name="station.view">
            <Col span={24}>
              <Card title={t('myPlants.title')}>
                <MyPlants userId={profile.id} />
              </Card>
            </Col>
          </Permission>
        </Row>
      </Col>
    </Row>
  );
}
