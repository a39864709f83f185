/**
 * Catches a page that fails to render or to load (e.g. a lazy chunk gone after a new
 * deployment) and offers a reload instead of a blank screen.
 */
import { Button } from 'antd';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StateMessage } from './PageState.tsx';

function Fallback() {
  const { t } = useTranslation();
  return (
    <StateMessage
      title={t('state.errorTitle')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('serverDown.reload')}
        </Button>
      }
    />
  );
}

export class PageErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidUpdate(previous: { resetKey?: string }) {
    // Navigating elsewhere gives the next page a fresh chance.
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render() {
    return this.state.failed ? <Fallback /> : this.props.children;
  }
}
