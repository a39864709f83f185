/** Render with the app's i18n (English) and Ant Design's App context. */
import { render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '../app/i18n.ts';
import en from '../locales/en/index.ts';

export function renderWithApp(ui: ReactElement) {
  const i18n = createI18n('en', en);
  return render(
    <I18nextProvider i18n={i18n}>
      <AntApp>{ui}</AntApp>
    </I18nextProvider>,
  );
}
