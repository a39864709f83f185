/** /agreement and /register/userAgreement: the user agreement in the interface language. */
import { useTranslation } from 'react-i18next';
import { AgreementText } from './AgreementText.tsx';
import { StaticLayout } from './StaticLayout.tsx';

export default function AgreementPage() {
  const { t } = useTranslation('pages');
  return (
    <StaticLayout>
      <AgreementText t={t} />
    </StaticLayout>
  );
}
