/**
 * The bulk-action bar: shown while the selection count is above zero — the count (and how many
 * of the selected plants the list below does not show: a filter or another page hides them, the
 * bulk actions still include them) and summary, clear, delete the selected plants, and the energy report of the selection over a
 * date range (quick ranges, at most 90 days) from `plant/energy/aggregate`.
 */
import { CloseOutlined, DeleteOutlined } from '@ant-design/icons';
import { type Endpoint, plantEnergyApi, plantsApi } from '@sunfleet/contracts';
import { Button, Flex, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMayCall, usePermission } from '../../components/Permission.tsx';
import { useSelectionView } from '../../components/useSelectionView.ts';
import { formatCapacity, formatPower } from '../../lib/format.ts';
import { useSelectionCheck } from './plantQueries.ts';
import styles from './plants.module.css';
import { plantSelection, usePlantSelection } from './selection.ts';
import { useDeletePlants } from './useDeletePlants.tsx';

/** The energy report endpoint (`plant/energy/aggregate`, contracts `plantEnergyApi`). */
export const energyAggregate: Endpoint | undefined = plantEnergyApi.energyAggregate;
const ExportEnergy = lazy(() => import('./ExportEnergy.tsx'));

/** `shown`: the ids of the rows the list shows; null when it is not shown as a list (the map). */
export function BulkBar({ shown }: { shown: readonly number[] | null }) {
  const { t } = useTranslation('plants');
  const selection = usePlantSelection();
  const view = useSelectionView([...selection.selected.keys()], shown);
  const canDelete = useMayCall()(plantsApi.deletePlant);
  const canExport = usePermission('station.export');
  const { deleteMany } = useDeletePlants();
  const check = useSelectionCheck();
  const [busy, setBusy] = useState(false);

  if (!selection.bulk) return null;
  const manageable = [...selection.selected.values()].filter((p) => p.canManage);
  const { summary } = selection;

  const onDelete = async () => {
    setBusy(true);
    try {
      // Plants deleted elsewhere meanwhile drop out before the question is asked.
      await check(manageable.map((p) => p.id));
    } finally {
      setBusy(false);
    }
    const still = [...plantSelection.getState().selected.values()].filter((p) => p.canManage);
    if (still.length > 0) await deleteMany(still);
  };

  return (
    <Flex align="center" justify="space-between" gap={12} wrap data-testid="bulk-bar" className={styles.bulkBar}>
      <Flex align="center" gap={12} wrap>
        <Typography.Text strong data-testid="bulk-count">
          {t('bulk.selected', { count: selection.count })}
        </Typography.Text>
        {view.hidden > 0 && (
          <Tooltip title={t('bulk.hiddenHint')}>
            <Typography.Text type="warning" data-testid="bulk-hidden">
              {t('bulk.hidden', { count: view.hidden })}
            </Typography.Text>
          </Tooltip>
        )}
        <Typography.Text type="secondary" data-testid="bulk-summary">
          {t('bulk.summary', { capacity: formatCapacity(summary.capacity), power: formatPower(summary.power) })}
        </Typography.Text>
        <Button size="small" type="link" icon={<CloseOutlined />} onClick={() => plantSelection.dispatch({ type: 'clear' })}>
          {t('bulk.clear')}
        </Button>
      </Flex>
      <Flex align="center" gap={8} wrap>
        {canExport && energyAggregate && (
          <Suspense fallback={null}>
            <ExportEnergy
              endpoint={energyAggregate}
              ids={[...selection.selected.keys()]}
              range={selection.range}
              onRange={(range) => plantSelection.dispatch({ type: 'range', range })}
            />
          </Suspense>
        )}
        {canDelete && (
          <Tooltip
            title={manageable.length < selection.count ? t('bulk.deleteOnlyOwn', { count: manageable.length }) : undefined}
          >
            <Button
              danger
              icon={<DeleteOutlined />}
              disabled={manageable.length === 0}
              loading={busy}
              onClick={() => void onDelete()}
              data-testid="bulk-delete"
            >
              {t('bulk.delete', { count: manageable.length })}
            </Button>
          </Tooltip>
        )}
      </Flex>
    </Flex>
  );
}
