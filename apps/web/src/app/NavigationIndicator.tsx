/** The top progress bar and the loading overlay during navigation. */
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigationBusy } from './navigationActivity.ts';

export function NavigationIndicator() {
  const busy = useNavigationBusy();
  const { t } = useTranslation();
  return (
    <>
      {busy && (
        <div
          className="sf-progress"
          role="progressbar"
          aria-busy="true"
          aria-label={t('state.loading')}
          data-testid="nav-progress"
        >
          <div className="sf-progress__bar" />
        </div>
      )}
      <Spin fullscreen spinning={busy} delay={100} />
    </>
  );
}
