/** The top progress bar and the loading overlay during navigation. */
import { Spin, theme } from 'antd';
import { useNavigationBusy } from './navigationActivity.ts';

export function NavigationIndicator() {
  const busy = useNavigationBusy();
  const { token } = theme.useToken();
  return (
    <>
      {busy && (
        <div className="sf-progress" role="progressbar" aria-busy="true" data-testid="nav-progress">
          <div className="sf-progress__bar" style={{ background: token.colorPrimary }} />
        </div>
      )}
      <Spin fullscreen spinning={busy} delay={100} />
    </>
  );
}
