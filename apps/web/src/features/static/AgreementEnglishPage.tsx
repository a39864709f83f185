/** /agreementen: the user agreement in English whatever the interface language. */
import { useTranslation } from 'react-i18next';
import { AgreementText } from './AgreementText.tsx';
import { StaticLayout } from './StaticLayout.tsx';

export default function AgreementEnglishPage() {
  const { i18n } = useTranslation();
  return (
    <StaticLayout>
      <AgreementText t={i18n.getFixedT('en', 'pages')} />
    </StaticLayout>
  );
}
