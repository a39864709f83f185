/**
 * The battery cell view: a packs × cells grid coloured by cell voltage or temperature (a toggle),
 * each square with its value and a tooltip; the legend gives the colour range and the spread
 * (highest − lowest), which shows an imbalance at a glance. Where the protocol reports no single
 * cells, each pack shows its lowest and highest cell.
 */
import { Flex, Segmented, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import ui from '../../../components/ui.module.css';
import { displayed, displayedSpan, displayUnit, formatNumber } from '../../../lib/format.ts';
import styles from '../shared/devices.module.css';
import { formatValue } from '../shared/format.ts';
import type { BatteryCell, BatteryPack } from '../shared/types.ts';
import { colourRange, type HeatMode, heatColor, heatGrid, MIN_SPAN } from './heatmap.ts';

const unitOf = (mode: HeatMode) => (mode === 'voltage' ? 'V' : '°C');
const decimals = (mode: HeatMode) => (mode === 'voltage' ? 3 : 1);

export function CellHeatMap({ packs, cells }: { packs: readonly BatteryPack[]; cells: readonly BatteryCell[] }) {
  const { t } = useTranslation('devices');
  const [mode, setMode] = useState<HeatMode>('voltage');
  const grid = useMemo(() => heatGrid(packs, cells, mode), [packs, cells, mode]);
  const unit = unitOf(mode);
  const fmt = (v: number | null) => formatValue(v, unit, decimals(mode));
  const [lo, hi] = grid.min !== null && grid.max !== null ? colourRange(grid.min, grid.max, MIN_SPAN[mode]) : [0, 1];
  const columnLabel = (c: number | 'min' | 'max') => (typeof c === 'number' ? String(c) : t(`cells.${c}`));

  return (
    <Flex vertical gap={12} data-testid="cell-heatmap" data-mode={mode}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Segmented
          value={mode}
          onChange={(v) => setMode(v as HeatMode)}
          options={[
            { value: 'voltage', label: <span data-testid="cell-mode-voltage">{t('cells.voltage')}</span> },
            { value: 'temperature', label: <span data-testid="cell-mode-temperature">{t('cells.temperature')}</span> },
          ]}
          data-testid="cell-mode"
        />
        {grid.min !== null && grid.max !== null && (
          <Flex align="center" gap={8} data-testid="cell-legend">
            <Typography.Text type="secondary" className={ui.note}>
              {fmt(lo)}
            </Typography.Text>
            <div
              aria-hidden="true"
              className={styles.heatLegend}
              // The heat scale's colours, worked out by heatColor.
              style={{
                background: `linear-gradient(90deg, ${heatColor(0, 0, 1)}, ${heatColor(0.5, 0, 1)}, ${heatColor(1, 0, 1)})`,
              }}
            />
            <Typography.Text type="secondary" className={ui.note}>
              {fmt(hi)}
            </Typography.Text>
            <Tag data-testid="cell-spread">
              {t('cells.spread', {
                value: formatValue(displayedSpan(grid.max - grid.min, unit), displayUnit(unit), decimals(mode)),
              })}
            </Tag>
          </Flex>
        )}
      </Flex>
      {!grid.perCell && (
        <Typography.Text type="secondary" className={ui.note} data-testid="cell-fallback">
          {t('cells.perPackNote')}
        </Typography.Text>
      )}
      {grid.rows.length === 0 ? (
        <Typography.Text type="secondary">{t('noValues')}</Typography.Text>
      ) : (
        <div className={styles.heatScroll}>
          <table
            aria-label={t('cells.title')}
            className={styles.heatTable}
            // Every cell: the full width; two per-pack columns: compact (widths from the column count).
            style={{
              width: grid.perCell ? '100%' : 96 + grid.columns.length * 150,
              minWidth: grid.perCell ? 96 + grid.columns.length * 50 : undefined,
            }}
          >
            <colgroup>
              <col className={styles.heatPackCol} />
              {grid.columns.map((c) => (
                <col key={String(c)} className={grid.perCell ? undefined : styles.heatValueCol} />
              ))}
            </colgroup>
            <thead>
              <tr>
                <th aria-label={t('battery.pack')} />
                {grid.columns.map((c) => (
                  <th key={String(c)} scope="col" className={styles.heatColHead}>
                    {columnLabel(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {grid.rows.map((row) => (
                <tr key={row.pack} data-testid={`cell-row-${row.pack}`}>
                  <th scope="row" className={styles.heatRowHead}>
                    <Flex vertical className={ui.shrink}>
                      <Typography.Text strong className={ui.note}>
                        {t('cells.pack', { index: row.pack })}
                      </Typography.Text>
                      <Typography.Text type="secondary" className={styles.heatRole}>
                        {row.master ? t('battery.master') : t('battery.slave')}
                      </Typography.Text>
                    </Flex>
                  </th>
                  {row.cells.map((c) => {
                    const label = `${t('cells.pack', { index: row.pack })} · ${
                      typeof c.column === 'number' ? t('cells.cell', { index: c.column }) : t(`cells.${c.column}`)
                    }: ${fmt(c.value)}`;
                    return (
                      <td key={String(c.column)} className={styles.heatTd}>
                        <Tooltip title={label}>
                          <div
                            className={c.value === null ? 'sf-heat-cell sf-heat-empty' : 'sf-heat-cell'}
                            // A value's colour on the heat scale.
                            style={c.value === null ? undefined : { background: heatColor(c.value, lo, hi) }}
                            data-testid={`cell-${row.pack}-${c.column}`}
                            data-value={c.value ?? ''}
                          >
                            {c.value === null ? '--' : formatNumber(displayed(c.value, unit).value, decimals(mode))}
                          </div>
                        </Tooltip>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Flex>
  );
}
