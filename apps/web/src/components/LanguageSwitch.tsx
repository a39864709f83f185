/**
 * English / Español; the choice is stored (signed in: in the profile too, through `onSave`) and the page reloads. The button is all the first
 * paint needs: the menu (antd Dropdown) is loaded on the first click, so the sign-in page does not
 * carry it. The button's name is its visible text (the current language); "Language" is its title.
 */
import { GlobalOutlined } from '@ant-design/icons';
import { Button, type ButtonProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { offeredLanguages, type UiLanguage } from '../app/language.ts';

const LanguageMenu = lazy(() => import('./LanguageMenu.tsx'));

/** The language the interface shows now, among the offered ones. */
export function useCurrentLanguage() {
  const { i18n } = useTranslation();
  return offeredLanguages.find((l) => i18n.language.startsWith(l.code)) ?? offeredLanguages[0];
}

export function LanguageButton(props: ButtonProps) {
  const { t } = useTranslation();
  const current = useCurrentLanguage();
  return (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      data-testid="language-switch"
      title={t('language')}
      aria-haspopup="menu"
      {...props}
    >
      {current.label}
    </Button>
  );
}

export function LanguageSwitch({ onSave }: { onSave?: (code: UiLanguage) => Promise<unknown> }) {
  const [wanted, setWanted] = useState(false);
  if (!wanted) return <LanguageButton onClick={() => setWanted(true)} />;
  return (
    <Suspense fallback={<LanguageButton loading />}>
      <LanguageMenu onSave={onSave} />
    </Suspense>
  );
}
