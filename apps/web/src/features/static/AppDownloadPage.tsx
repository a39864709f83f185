/** /app/download: where to get the mobile app. */
import { AndroidOutlined, AppleOutlined, MobileOutlined } from '@ant-design/icons';
import { Card, Col, Result, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { StaticLayout } from './StaticLayout.tsx';
import styles from './static.module.css';

export default function AppDownloadPage() {
  const { t } = useTranslation('pages');
  const stores = [
    {
      key: 'ios',
      icon: <AppleOutlined className={styles.storeIcon} />,
      name: t('appDownload.ios'),
      hint: t('appDownload.iosHint'),
    },
    {
      key: 'android',
      icon: <AndroidOutlined className={styles.storeIcon} />,
      name: t('appDownload.android'),
      hint: t('appDownload.androidHint'),
    },
  ];
  return (
    <StaticLayout>
      <Result icon={<MobileOutlined />} title={t('appDownload.title')} subTitle={t('appDownload.subtitle')} />
      <Row gutter={[16, 16]}>
        {stores.map((s) => (
          <Col xs={24} md={12} key={s.key}>
            <Card>
              <Card.Meta
                avatar={s.icon}
                title={s.name}
                description={<Typography.Text type="secondary">{s.hint}</Typography.Text>}
              />
            </Card>
          </Col>
        ))}
      </Row>
    </StaticLayout>
  );
}
