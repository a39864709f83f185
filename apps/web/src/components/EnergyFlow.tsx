/**
 * The energy-flow diagram: PV, grid, battery (with its SOC) and load around the plant's hub.
 * Each line carries dashes running in the direction power moves (flow.ts); nodes the plant
 * lacks are left out, the battery also on a grid-tied plant.
 */
import { Empty, theme } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/client.ts';
import { type EnergyFlow, type FlowLink, type FlowNode, flowLinks } from '../lib/energyFlow.ts';
import { formatMeasure, formatWatts } from '../lib/format.ts';
import { formatZoned } from '../lib/zonedTime.ts';
import { LiveCard } from './CardState.tsx';
import styles from './EnergyFlow.module.css';
import { usePalette } from './palette.ts';

const W = 480;
const H = 320;
const HUB = { x: 240, y: 150, r: 12 };
const NODE_R = 28;
const place: Record<FlowNode, { x: number; y: number }> = {
  pv: { x: 240, y: 44 },
  grid: { x: 72, y: 150 },
  load: { x: 408, y: 150 },
  battery: { x: 240, y: 276 },
};

/** The line between a node and the hub, from edge to edge, drawn in the direction of flow. */
function linePath(node: FlowNode, direction: FlowLink['direction']): string {
  const p = place[node];
  const dx = HUB.x - p.x;
  const dy = HUB.y - p.y;
  const len = Math.hypot(dx, dy);
  const ux = dx / len;
  const uy = dy / len;
  const a = { x: p.x + ux * (NODE_R + 4), y: p.y + uy * (NODE_R + 4) };
  const b = { x: HUB.x - ux * (HUB.r + 4), y: HUB.y - uy * (HUB.r + 4) };
  const [from, to] = direction === 'out' ? [b, a] : [a, b];
  const mid = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 };
  return `M${from.x.toFixed(1)},${from.y.toFixed(1)} L${mid.x.toFixed(1)},${mid.y.toFixed(1)} L${to.x.toFixed(1)},${to.y.toFixed(1)}`;
}

function Icon({ node, soc, stroke }: { node: FlowNode; soc: number | null; stroke: string }) {
  const common = { fill: 'none', stroke, strokeWidth: 2, strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const };
  if (node === 'pv')
    return (
      <g {...common}>
        <circle r={6} />
        {Array.from({ length: 8 }, (_, i) => {
          const a = (i * Math.PI) / 4;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed rays
            <line key={i} x1={Math.cos(a) * 9} y1={Math.sin(a) * 9} x2={Math.cos(a) * 13} y2={Math.sin(a) * 13} />
          );
        })}
      </g>
    );
  if (node === 'grid')
    return (
      <g {...common}>
        <path d="M-8,13 L-3,-13 L3,-13 L8,13 M-5,0 L5,0 M-11,-7 L11,-7 M-6,6 L6,6" />
      </g>
    );
  if (node === 'load')
    return (
      <g {...common}>
        <path d="M-12,-1 L0,-12 L12,-1 M-8,-4 L-8,11 L8,11 L8,-4 M-2,11 L-2,4 L2,4 L2,11" />
      </g>
    );
  const level = soc === null ? 0 : Math.max(0, Math.min(100, soc)) / 100;
  return (
    <g {...common}>
      <rect x={-12} y={-7} width={22} height={14} rx={2} />
      <line x1={12} y1={-3} x2={12} y2={3} />
      <rect x={-10} y={-5} width={18 * level} height={10} fill={stroke} stroke="none" />
    </g>
  );
}

export function EnergyFlowCard({
  data,
  plantType,
  error,
  pending,
  onRetry,
  timezone,
}: {
  data: EnergyFlow | undefined;
  plantType: number | null | undefined;
  error: ApiError | null;
  pending: boolean;
  onRetry: () => void;
  timezone: string;
}) {
  const { t, i18n } = useTranslation('overview');
  const { token } = theme.useToken();
  const colour: Record<FlowNode, string> = usePalette().power;
  const uid = useId().replace(/[^A-Za-z0-9_-]/g, '');
  const links = data ? flowLinks(data, plantType) : [];

  const caption = (l: FlowLink) => {
    const lines = [`${t(`flow.${l.node}`)}`];
    if (l.node === 'battery' && data?.soc !== null && data?.soc !== undefined)
      lines[0] = `${lines[0]} · ${t('flow.soc', { value: formatMeasure(data.soc, '%', 0) })}`;
    return [...lines, l.watts === null ? '--' : formatWatts(l.watts), t(`flow.states.${l.state}`)];
  };
  const labelAt: Record<FlowNode, { x: number; y: number; anchor: 'start' | 'middle' }> = {
    pv: { x: place.pv.x + NODE_R + 12, y: place.pv.y - 14, anchor: 'start' },
    battery: { x: place.battery.x + NODE_R + 12, y: place.battery.y - 14, anchor: 'start' },
    grid: { x: place.grid.x, y: place.grid.y + NODE_R + 18, anchor: 'middle' },
    load: { x: place.load.x, y: place.load.y + NODE_R + 18, anchor: 'middle' },
  };

  return (
    <LiveCard
      title={t('flow.title')}
      testId="flow-card"
      updated={data?.at ? formatZoned(data.at, timezone, i18n.language) : null}
      pending={pending}
      error={error}
      hasData={Boolean(data)}
      onRetry={onRetry}
      rows={6}
      reserve={styles.reserve}
      errorTestId="flow-error"
    >
      {() =>
        links.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('flow.noDevices')} data-testid="flow-empty" />
        ) : (
          <svg
            className={styles.svg}
            viewBox={`0 0 ${W} ${H}`}
            width="100%"
            role="img"
            aria-label={links.map((l) => caption(l).join(' ')).join('; ')}
            data-testid="flow-diagram"
          >
            <defs>
              {links.map((l) => (
                <marker
                  key={l.node}
                  id={`${uid}-arrow-${l.node}`}
                  viewBox="0 0 10 10"
                  refX="5"
                  refY="5"
                  markerWidth="7"
                  markerHeight="7"
                  orient="auto"
                >
                  <path d="M0,0 L10,5 L0,10 z" fill={colour[l.node]} />
                </marker>
              ))}
            </defs>
            {links.map((l) => {
              const d = linePath(l.node, l.direction);
              const active = l.direction !== 'idle';
              return (
                <g key={l.node} data-testid={`flow-line-${l.node}`} data-direction={l.direction}>
                  <path
                    d={d}
                    className={styles.track}
                    stroke={active ? colour[l.node] : token.colorBorder}
                    opacity={active ? 0.25 : 1}
                  />
                  {active && (
                    <path d={d} className={styles.dash} stroke={colour[l.node]} markerMid={`url(#${uid}-arrow-${l.node})`} />
                  )}
                </g>
              );
            })}
            <circle
              cx={HUB.x}
              cy={HUB.y}
              r={HUB.r}
              fill={token.colorBgContainer}
              stroke={token.colorTextSecondary}
              strokeWidth={2}
            />
            <circle cx={HUB.x} cy={HUB.y} r={4} fill={token.colorTextSecondary} />
            {links.map((l) => {
              const p = place[l.node];
              const label = labelAt[l.node];
              const [name, value, state] = caption(l);
              return (
                <g key={l.node} data-testid={`flow-node-${l.node}`}>
                  <circle
                    cx={p.x}
                    cy={p.y}
                    r={NODE_R}
                    fill={token.colorBgContainer}
                    stroke={l.direction === 'idle' ? token.colorBorder : colour[l.node]}
                    strokeWidth={2}
                  />
                  <g transform={`translate(${p.x},${p.y})`}>
                    <Icon node={l.node} soc={data?.soc ?? null} stroke={colour[l.node]} />
                  </g>
                  <text x={label.x} y={label.y} textAnchor={label.anchor} fontSize={13} fill={token.colorTextSecondary}>
                    {name}
                  </text>
                  <text
                    x={label.x}
                    y={label.y + 17}
                    textAnchor={label.anchor}
                    fontSize={15}
                    fontWeight={600}
                    fill={token.colorText}
                    data-testid={`flow-value-${l.node}`}
                  >
                    {value}
                  </text>
                  <text x={label.x} y={label.y + 33} textAnchor={label.anchor} fontSize={12} fill={token.colorTextTertiary}>
                    {state}
                  </text>
                </g>
              );
            })}
          </svg>
        )
      }
    </LiveCard>
  );
}
