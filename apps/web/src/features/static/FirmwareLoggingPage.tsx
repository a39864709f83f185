/** /firmwareLogging: public firmware release notes (filled in by the firmware issue). */
import { Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import ui from '../../components/ui.module.css';
import { StaticLayout } from './StaticLayout.tsx';

export default function FirmwareLoggingPage() {
  const { t } = useTranslation('pages');
  return (
    <StaticLayout>
      <Typography.Title level={3} className={ui.first}>
        {t('firmwareLogging.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('firmwareLogging.subtitle')}</Typography.Paragraph>
      <Empty description={t('common:state.comingSoon')} className={ui.emptyTall} />
    </StaticLayout>
  );
}
