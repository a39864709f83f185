/** The partner-brand sign-in: the same form under the partner brand. */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { applyFavicon, brandById, currentBrand } from '../../app/brands.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { LoginForm } from './LoginForm.tsx';

const partner = brandById('partner');

export default function PartnerLoginPage() {
  const { t } = useTranslation('auth');
  useEffect(() => {
    applyFavicon(partner.favicon);
    return () => applyFavicon(currentBrand.favicon);
  }, []);
  return (
    <AuthLayout brand={partner} title={t('partnerSignInTitle', { brand: partner.title })} subtitle={t('signInSubtitle')}>
      <LoginForm />
    </AuthLayout>
  );
}
