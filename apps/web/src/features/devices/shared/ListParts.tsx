/** Pieces every device list shares: the page frame, status badge, plant and gateway links, times, row actions. */
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { DeviceStateName } from '@sunfleet/contracts';
import { Badge, Button, Card, Flex, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Titled } from '../../../components/ListTable.tsx';
import ui from '../../../components/ui.module.css';
import { relativeTime } from '../../../lib/format.ts';
import { deviceStateStyle, gatewayStateStyle } from '../../../lib/statusColours.ts';
import { browserZone, formatZoned } from '../../../lib/zonedTime.ts';
import styles from './devices.module.css';
import { stateName } from './format.ts';
import { gatewayPath, plantPath } from './types.ts';

export function ListFrame({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Card data-testid={testId}>
      <Typography.Title level={4} className={styles.listTitle} data-testid="page-title">
        {title}
      </Typography.Title>
      {children}
    </Card>
  );
}

/** A device's state (its status, or off) named by the contracts. */
export function StatusBadge({ status, testId }: { status: DeviceStateName; testId?: string }) {
  const { i18n } = useTranslation('devices');
  return (
    <Badge
      status={deviceStateStyle[status].badge}
      text={<Titled text={stateName(status, i18n.language)} />}
      data-testid={testId}
    />
  );
}

export function GatewayState({ status, testId }: { status: 'online' | 'offline'; testId?: string }) {
  const { t } = useTranslation('devices');
  return <Badge status={gatewayStateStyle[status].badge} text={<Titled text={t(`gateway.${status}`)} />} data-testid={testId} />;
}

export function PlantLink({ plant }: { plant: { id: number; name: string } | null }) {
  const { t } = useTranslation('devices');
  if (!plant) return <Typography.Text type="secondary">{t('unbound')}</Typography.Text>;
  return (
    <Link to={plantPath(plant.id)} title={plant.name} className="sf-ellipsis-link">
      {plant.name}
    </Link>
  );
}

export function GatewayLink({ gateway }: { gateway: { id: number; sn: string; alias: string | null } }) {
  return (
    <Link to={gatewayPath(gateway.id)} title={gateway.alias ?? gateway.sn} className="sf-ellipsis-link">
      {gateway.sn}
    </Link>
  );
}

/**
 * "5 minutes ago", the full date-time in the tooltip, in `zone` (a plant's, on its pages) or the
 * browser's (lists across plants), named.
 */
export function When({ iso, zone }: { iso: string | null; zone?: string }) {
  const { i18n } = useTranslation();
  if (!iso) return <span>--</span>;
  return (
    <Tooltip title={formatZoned(iso, zone ?? browserZone(), i18n.language, { seconds: true })}>
      <span>{relativeTime(iso, i18n.language)}</span>
    </Tooltip>
  );
}

/** Rename and delete buttons of a row, each only when given. */
export function RowActions({ id, onRename, onDelete }: { id: string; onRename?: () => void; onDelete?: () => void }) {
  const { t } = useTranslation('devices');
  return (
    <Flex gap={2}>
      {onRename && (
        <Tooltip title={t('actions.rename')}>
          <Button
            type="text"
            size="small"
            icon={<EditOutlined />}
            aria-label={t('actions.rename')}
            onClick={onRename}
            data-testid={`rename-${id}`}
          />
        </Tooltip>
      )}
      {onDelete && (
        <Tooltip title={t('actions.delete')}>
          <Button
            type="text"
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('actions.delete')}
            onClick={onDelete}
            data-testid={`delete-${id}`}
          />
        </Tooltip>
      )}
    </Flex>
  );
}

/** The device cell of a list: the SN (a link to its page) and the alias under it. */
export function DeviceCell({ sn, alias, to, testId }: { sn: string; alias: string | null; to: string; testId: string }) {
  return (
    <TwoLines
      main={
        <Link to={to} data-testid={testId} className="sf-ellipsis-link" title={sn}>
          {sn}
        </Link>
      }
      sub={alias ?? undefined}
    />
  );
}

/** Where a device is: its plant (a link) and the gateway it reports through under it. */
export function PlaceCell({
  plant,
  gateway,
}: {
  plant: { id: number; name: string } | null;
  gateway: { id: number; sn: string; alias: string | null };
}) {
  return (
    <Flex vertical className={ui.shrink}>
      <PlantLink plant={plant} />
      <Link to={gatewayPath(gateway.id)} className={`sf-ellipsis-link ${ui.note}`} title={gateway.alias ?? gateway.sn}>
        {gateway.sn}
      </Link>
    </Flex>
  );
}

/** A cell with a main line and an optional secondary one. */
export function TwoLines({ main, sub }: { main: ReactNode; sub?: ReactNode }) {
  return (
    <Flex vertical className={ui.shrink}>
      <div className={ui.ellipsis}>{main}</div>
      {sub ? (
        <Typography.Text type="secondary" ellipsis={{ tooltip: true }} className={ui.note}>
          {sub}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
