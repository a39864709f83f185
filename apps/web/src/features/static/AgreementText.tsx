/** The user agreement, in the language of the `t` it is given. */
import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import ui from '../../components/ui.module.css';

interface Section {
  heading: string;
  body: string;
}

export function AgreementText({ t }: { t: TFunction }) {
  const sections = t('agreement.sections', { returnObjects: true }) as Section[];
  return (
    <Typography>
      <Typography.Title level={2} className={ui.first}>
        {t('agreement.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('agreement.updated')}</Typography.Paragraph>
      <Typography.Paragraph>{t('agreement.intro')}</Typography.Paragraph>
      {sections.map((s) => (
        <section key={s.heading}>
          <Typography.Title level={4}>{s.heading}</Typography.Title>
          <Typography.Paragraph>{s.body}</Typography.Paragraph>
        </section>
      ))}
    </Typography>
  );
}
