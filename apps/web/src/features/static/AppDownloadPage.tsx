/**
 * /app/download: where to get the mobile app. The store pages come from the server's
 * configuration (`APP_IOS_URL`, `APP_ANDROID_URL`); each configured store shows its link and a QR
 * code of it (SVG, drawn in the browser), a store that is not configured is left out, and with
 * none the page says the app is not available here.
 */
import { AndroidOutlined, AppleOutlined, MobileOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Flex, Result, Row, Skeleton, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageError } from '../../components/PageState.tsx';
import { StaticLayout } from './StaticLayout.tsx';
import styles from './static.module.css';
import { useAppStores } from './staticQueries.ts';

type Store = 'ios' | 'android';

/** The QR code of `text` as an SVG document, or null until it is drawn. */
function useQrSvg(text: string): string | null {
  const [svg, setSvg] = useState<{ text: string; svg: string } | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((qr) => qr.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
      .then((out) => {
        if (live) setSvg({ text, svg: out });
      });
    return () => {
      live = false;
    };
  }, [text]);
  return svg?.text === text ? svg.svg : null;
}

function StoreCard({ store, url, icon }: { store: Store; url: string; icon: ReactNode }) {
  const { t } = useTranslation('pages');
  const svg = useQrSvg(url);
  const name = t(`appDownload.${store}`);
  return (
    <Card data-testid={`store-${store}`}>
      <Flex vertical align="center" gap={12}>
        <Card.Meta avatar={icon} title={name} description={t(`appDownload.${store}Hint`)} />
        {svg ? (
          <img
            className={styles.qr}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
            alt={t('appDownload.qrAlt', { store: name })}
            data-testid={`store-${store}-qr`}
          />
        ) : (
          <Skeleton.Image active className={styles.qr} />
        )}
        <Typography.Text type="secondary" className={styles.scan}>
          {t('appDownload.scan')}
        </Typography.Text>
        <Button type="primary" href={url} target="_blank" rel="noopener noreferrer" data-testid={`store-${store}-link`}>
          {t(`appDownload.open.${store}`)}
        </Button>
      </Flex>
    </Card>
  );
}

export default function AppDownloadPage() {
  const { t } = useTranslation('pages');
  const stores = useAppStores();
  const configured = stores.data
    ? [
        { store: 'ios' as const, url: stores.data.ios, icon: <AppleOutlined className={styles.storeIcon} /> },
        { store: 'android' as const, url: stores.data.android, icon: <AndroidOutlined className={styles.storeIcon} /> },
      ].filter((s): s is typeof s & { url: string } => s.url !== null)
    : [];
  return (
    <StaticLayout>
      <Result icon={<MobileOutlined />} title={t('appDownload.title')} subTitle={t('appDownload.subtitle')} />
      {stores.isPending ? (
        <Skeleton active />
      ) : stores.isError ? (
        <PageError error={stores.error} onRetry={() => void stores.refetch()} />
      ) : configured.length === 0 ? (
        <Empty description={t('appDownload.none')} data-testid="stores-none" />
      ) : (
        <Row gutter={[16, 16]} justify="center">
          {configured.map((s) => (
            <Col xs={24} md={12} key={s.store}>
              <StoreCard store={s.store} url={s.url} icon={s.icon} />
            </Col>
          ))}
        </Row>
      )}
    </StaticLayout>
  );
}
