/**
 * RSSI as four signal bars (contracts' `signalBars`: ≥ −65 dBm 4, ≥ −75 3, ≥ −85 2, ≥ −95 1);
 * the dBm value next to them and the quality word in the tooltip. No RSSI: a dash.
 */
import { devicesApi } from '@sunfleet/contracts';
import { Flex, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePalette } from '../../../components/palette.ts';
import ui from '../../../components/ui.module.css';
import { signalQuality } from '../shared/format.ts';

export function SignalBars({
  rssi,
  bars,
  showValue = true,
  testId,
}: {
  rssi: number | null;
  /** The server's bar count; computed from the RSSI when absent. */
  bars?: number | null;
  showValue?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('devices');
  const { token } = theme.useToken();
  const { meaning } = usePalette();
  const barColor = [meaning.bad, meaning.bad, meaning.warning, meaning.good, meaning.good] as const;
  const n = bars ?? devicesApi.signalBars(rssi);
  if (n === null || rssi === null) return <span data-testid={testId}>--</span>;
  const quality = t(`signal.${signalQuality[Math.max(0, Math.min(4, n))]}`);
  const label = t('signal.label', { rssi, quality });
  return (
    <Tooltip title={label}>
      <Flex align="center" gap={6} aria-label={label} role="img" data-testid={testId} data-bars={n}>
        <svg width={18} height={14} viewBox="0 0 18 14" aria-hidden="true">
          {[0, 1, 2, 3].map((i) => (
            <rect
              key={i}
              x={i * 4.5}
              y={14 - (i + 1) * 3.5}
              width={3}
              height={(i + 1) * 3.5}
              rx={0.8}
              fill={i < n ? barColor[n] : token.colorFillSecondary}
            />
          ))}
        </svg>
        {showValue && (
          <Typography.Text type="secondary" className={`${ui.note} ${ui.nowrap}`}>
            {rssi} dBm
          </Typography.Text>
        )}
      </Flex>
    </Tooltip>
  );
}
