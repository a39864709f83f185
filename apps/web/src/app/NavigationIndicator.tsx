/** The top progress bar and the loading overlay during navigation. */
import { Spin } from 'antd';
import { useNavigationBusy } from './navigationActivity.ts';

export function NavigationIndicator() {
  const busy = useNavigationBusy();
  return (
    <>
      {busy && (
        <div className="sf-progress" role="progressbar" aria-busy="true" data-testid="nav-progress">
          <div className="sf-progress__bar" />
        </div>
      )}
      <Spin fullscreen spinning={busy} delay={100} />
    </>
  );
}
