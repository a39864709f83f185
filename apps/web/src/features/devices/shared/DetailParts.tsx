/**
 * Pieces of the device detail pages: the header (back, name, status, facts, actions), the
 * "not found" state, figures, decoded protocol fields, active faults and the per-phase table.
 */
import { ArrowLeftOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { DeviceStateName } from '@sunfleet/contracts';
import { Alert, Button, Card, Descriptions, Flex, Result, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle.tsx';
import ui from '../../../components/ui.module.css';
import { deviceStateStyle } from '../../../lib/statusColours.ts';
import { formatZoned } from '../../../lib/zonedTime.ts';
import styles from './devices.module.css';
import { formatField, formatValue, stateName } from './format.ts';
import { type ActiveFault, type FieldValue, gatewayPath, type Phase, plantPath } from './types.ts';

export interface Fact {
  key: string;
  label: ReactNode;
  value: ReactNode;
}

/** Where a device stands: its plant (none when unbound) and the gateway it reports through. */
interface Placed {
  plant: { id: number; name: string } | null;
  gateway: { id: number; sn: string };
}

/**
 * The facts a device header states first: plant (or unbound), gateway and protocol. `gateway`
 * replaces the gateway link's text (the inverter adds the gateway's state).
 */
export function placeFacts(t: TFunction<'devices'>, device: Placed, protocol: string, gateway?: ReactNode): Fact[] {
  return [
    {
      key: 'plant',
      label: t('columns.plant'),
      value: device.plant ? <Link to={plantPath(device.plant.id)}>{device.plant.name}</Link> : t('unbound'),
    },
    {
      key: 'gateway',
      label: t('columns.gateway'),
      value: <Link to={gatewayPath(device.gateway.id)}>{gateway ?? device.gateway.sn}</Link>,
    },
    { key: 'protocol', label: t('columns.protocol'), value: protocol },
  ];
}

/** A device header's state tag (its status, or off), named by the contracts, in the state's colour. */
export function StatusTag({ status }: { status: DeviceStateName }) {
  const { i18n } = useTranslation('devices');
  return (
    <Tag color={deviceStateStyle[status].tag} data-testid="detail-status">
      {stateName(status, i18n.language)}
    </Tag>
  );
}

export interface DetailTab {
  key: string;
  label: string;
  children: ReactNode;
}

/** A detail page's tabs; the open one stays in the address (`?tab=`, none for the first). */
export function DetailTabs({ items, testId }: { items: DetailTab[]; testId: string }) {
  const [search, setSearch] = useSearchParams();
  const first = items[0]?.key;
  const asked = search.get('tab');
  const tab = asked && items.some((i) => i.key === asked) ? asked : first;
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => setSearch(key === first ? {} : { tab: key }, { replace: true })}
      destroyOnHidden
      data-testid={testId}
      items={items.map((i) => ({ key: i.key, label: <span data-testid={`tab-${i.key}`}>{i.label}</span>, children: i.children }))}
    />
  );
}

export function DetailHeader({
  back,
  backLabel,
  title,
  subtitle,
  tags,
  facts,
  actions,
  testId,
}: {
  back: string;
  backLabel: string;
  title: string;
  subtitle?: string | null;
  tags?: ReactNode;
  facts: Fact[];
  actions?: ReactNode;
  testId: string;
}) {
  const navigate = useNavigate();
  return (
    <Card size="small" data-testid={testId}>
      <Flex justify="space-between" align="flex-start" gap={12} wrap>
        <Flex gap={12} align="flex-start" className={styles.detailHead}>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            aria-label={backLabel}
            title={backLabel}
            onClick={() => navigate(back)}
            data-testid="detail-back"
          />
          <Flex vertical gap={6} className={ui.shrink}>
            <Flex align="center" gap={10} wrap>
              <PageTitle testId="detail-name">{title}</PageTitle>
              {subtitle && (
                <Typography.Text type="secondary" copyable data-testid="detail-sn">
                  {subtitle}
                </Typography.Text>
              )}
              {tags}
            </Flex>
            <Space size={[20, 4]} wrap>
              {facts.map((f) => (
                <Typography.Text type="secondary" key={f.key} data-testid={`fact-${f.key}`}>
                  {f.label}: <Typography.Text>{f.value}</Typography.Text>
                </Typography.Text>
              ))}
            </Space>
          </Flex>
        </Flex>
        {actions && <Space wrap>{actions}</Space>}
      </Flex>
    </Card>
  );
}

/** Rename and delete buttons of a detail header, each only when given. */
export function DetailActions({ onRename, onDelete }: { onRename?: () => void; onDelete?: () => void }) {
  const { t } = useTranslation('devices');
  if (!onRename && !onDelete) return null;
  return (
    <Flex gap={8} wrap>
      {onRename && (
        <Button icon={<EditOutlined />} onClick={onRename} data-testid="detail-rename">
          {t('actions.rename')}
        </Button>
      )}
      {onDelete && (
        <Button danger icon={<DeleteOutlined />} onClick={onDelete} data-testid="detail-delete">
          {t('actions.delete')}
        </Button>
      )}
    </Flex>
  );
}

export function DeviceMissing({ text, back, backLabel }: { text: string; back: string; backLabel: string }) {
  const navigate = useNavigate();
  return (
    <Card>
      <Result
        status="404"
        title={text}
        extra={
          <Button type="primary" onClick={() => navigate(back)}>
            {backLabel}
          </Button>
        }
        data-testid="device-missing"
      />
    </Card>
  );
}

/** "Updated 2026-03-01 12:05" in the device's time zone, for a card's corner. */
export function Updated({ at, timezone }: { at: string | null | undefined; timezone: string }) {
  const { t, i18n } = useTranslation('devices');
  if (!at) return null;
  return (
    <Typography.Text type="secondary" className={ui.note} data-testid="updated-at">
      {t('updated', { time: formatZoned(at, timezone, i18n.language) })}
    </Typography.Text>
  );
}

/** Decoded protocol fields as a description list. */
export function FieldList({ fields, testId, columns = 3 }: { fields: readonly FieldValue[]; testId: string; columns?: number }) {
  const { t } = useTranslation('devices');
  if (fields.length === 0)
    return (
      <Typography.Text type="secondary" data-testid={testId}>
        {t('noValues')}
      </Typography.Text>
    );
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, sm: 2, lg: columns }}
      data-testid={testId}
      items={fields.map((f) => ({
        key: f.key,
        label: f.name,
        children: <span data-testid={`field-${f.key}`}>{formatField(f)}</span>,
      }))}
    />
  );
}

const levelColor = { fault: 'error', warning: 'warning', info: 'info' } as const;

/** The fault and warning bits set in the latest upload; nothing when there are none. */
export function FaultList({ faults }: { faults: readonly ActiveFault[] }) {
  const { t } = useTranslation('devices');
  if (faults.length === 0) return null;
  return (
    <Flex vertical gap={6} data-testid="faults">
      {faults.map((f) => (
        <Alert
          key={f.code}
          type={levelColor[f.level]}
          showIcon
          title={
            <Space>
              <Tag>{t(`faultLevel.${f.level}`)}</Tag>
              {f.text}
              <Typography.Text type="secondary" className={ui.note}>
                {f.code}
              </Typography.Text>
            </Space>
          }
        />
      ))}
    </Flex>
  );
}

/** Voltage, current and power of each AC phase. */
export function PhaseTable({ phases, testId }: { phases: readonly Phase[]; testId: string }) {
  const { t } = useTranslation('devices');
  const withPower = phases.some((p) => p.power !== null);
  return (
    <Table<Phase>
      size="small"
      rowKey="phase"
      pagination={false}
      dataSource={[...phases]}
      data-testid={testId}
      locale={{ emptyText: t('noValues') }}
      columns={[
        { key: 'phase', title: t('realtime.phase'), dataIndex: 'phase', width: 80 },
        { key: 'voltage', title: t('realtime.voltage'), align: 'right', render: (_, p) => formatValue(p.voltage, 'V') },
        { key: 'current', title: t('realtime.current'), align: 'right', render: (_, p) => formatValue(p.current, 'A') },
        ...(withPower
          ? [
              {
                key: 'power',
                title: t('realtime.power'),
                align: 'right' as const,
                render: (_: unknown, p: Phase) => formatValue(p.power, 'W'),
              },
            ]
          : []),
      ]}
    />
  );
}
