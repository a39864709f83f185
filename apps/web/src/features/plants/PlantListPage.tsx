/**
 * /plants (station.view): counts per status, filters (status, type, name), the server-sorted and
 * paged list in a list table filling the window — or the map of the same filters — the selected-plants bulk bar,
 * and the row actions (edit, share, transfer, delete). Filters, paging and the selection live in
 * the selected-plants store, so they survive a visit to another page.
 */
import {
  AppstoreOutlined,
  EnvironmentOutlined,
  PlusOutlined,
  ReloadOutlined,
  SearchOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { plantsApi } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Button, Card, Flex, Segmented, Select } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/hooks.ts';
import { PageEmpty, PageError, PageLoading } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { Can, useMayCall, usePermission } from '../../components/Permission.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import { StatusCards } from '../../components/StatusCards.tsx';
import ui from '../../components/ui.module.css';
import { BulkBar, energyAggregate } from './BulkBar.tsx';
import { OpenAlarms } from './OpenAlarms.tsx';
import type { PlantRef } from './PlantDialog.tsx';
import { usePlantTypes, useSelectionCheck } from './plantQueries.ts';
import styles from './plants.module.css';
import { ShareDialog } from './ShareDialog.tsx';
import { defaultCriteria, type PlantRow, plantSelection, toSelected, usePlantSelection } from './selection.ts';
import { TransferDialog } from './TransferDialog.tsx';
import { useDeletePlants } from './useDeletePlants.tsx';

// Each view is its own chunk: the map view does not load the table, nor the list view the map.
const PlantMap = lazy(() => import('./PlantMap.tsx'));
const PlantTable = lazy(() => import('./PlantTable.tsx').then((m) => ({ default: m.PlantTable })));
const NAME_DEBOUNCE_MS = 300;
const REFRESH_MS = 60_000;

export default function PlantListPage() {
  const { t } = useTranslation('plants');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'map' ? 'map' : 'list';
  const selection = usePlantSelection();
  const { criteria, page, size } = selection;
  const may = useMayCall();
  const canDelete = may(plantsApi.deletePlant);
  const canExport = usePermission('station.export');
  const check = useSelectionCheck();
  const { deleteOne } = useDeletePlants();
  const [sharing, setSharing] = useState<PlantRef | null>(null);
  const [transferring, setTransferring] = useState<PlantRef | null>(null);

  const filters = {
    ...(criteria.status ? { status: criteria.status } : {}),
    type: criteria.type,
    ...(criteria.name ? { name: criteria.name } : {}),
  };
  const counts = useApiQuery(plantsApi.overviewPlantCount, {}, { refetchInterval: REFRESH_MS });
  const list = useApiQuery(
    plantsApi.listPlants,
    { query: { ...filters, sort: criteria.sort, order: criteria.order, page, size } },
    { placeholderData: keepPreviousData, refetchInterval: REFRESH_MS, enabled: view === 'list' },
  );
  const rows: PlantRow[] = Array.isArray(list.data?.list) ? list.data.list : [];
  const total = typeof list.data?.total === 'number' ? list.data.total : 0;
  const shownIds = useMemo(() => rows.map((r) => r.id), [rows]);

  // Fresh values for selected plants on this page; a complete unfiltered first page is the whole
  // set of current ids, against which the selection is validated.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per fresh answer; the other values are those of the query that produced it
  useEffect(() => {
    if (!list.data || list.isPlaceholderData) return;
    plantSelection.dispatch({ type: 'refresh', plants: rows.map((r) => toSelected(r)) });
    const unfiltered = !criteria.status && criteria.type === -1 && !criteria.name;
    if (unfiltered && page === 1 && total <= rows.length)
      plantSelection.dispatch({ type: 'validate', current: rows.map((r) => r.id) });
    // A page past the end (plants went away): show the last one.
    if (rows.length === 0 && total > 0 && page > 1) plantSelection.dispatch({ type: 'page', page: Math.ceil(total / size) });
  }, [list.data, list.isPlaceholderData]);

  // On arrival, and whenever the number of plants drops, selected plants are checked one by one.
  const lastTotal = useRef<number | null>(null);
  useEffect(() => {
    const n = counts.data?.total;
    if (typeof n !== 'number') return;
    const dropped = lastTotal.current !== null && n < lastTotal.current;
    const first = lastTotal.current === null;
    lastTotal.current = n;
    if ((first || dropped) && plantSelection.getState().count > 0) void check();
  }, [counts.data?.total, check]);

  const noPlantsAtAll = counts.data?.total === 0;
  // Selection serves the bulk actions: without any, no checkboxes.
  const selectable = canDelete || (canExport && energyAggregate !== undefined);

  return (
    <Card data-testid="plant-list-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
        <PageTitle>{t('menu:plants')}</PageTitle>
        <Flex gap={8} align="center" wrap>
          <Segmented
            value={view}
            onChange={(v) => setParams(v === 'map' ? { view: 'map' } : {}, { replace: true })}
            options={[
              { value: 'list', label: t('view.list'), icon: <AppstoreOutlined /> },
              { value: 'map', label: t('view.map'), icon: <EnvironmentOutlined /> },
            ]}
            data-testid="view-toggle"
          />
          <Button icon={<SwapOutlined />} onClick={() => navigate('/plants/transfers')} data-testid="open-transfers">
            {t('transfers.open')}
          </Button>
          <Can call={plantsApi.createPlant}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/plant-add')} data-testid="add-plant">
              {t('menu:plantAdd')}
            </Button>
          </Can>
        </Flex>
      </Flex>

      <StatusCards
        counts={counts.data}
        loading={counts.isPending}
        status={criteria.status}
        onStatus={(status) => plantSelection.dispatch({ type: 'criteria', criteria: { status } })}
      />
      <OpenAlarms refreshMs={REFRESH_MS} />

      {noPlantsAtAll ? (
        <PageEmpty description={t('noPlants')}>
          <Can call={plantsApi.createPlant}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/plant-add')}>
              {t('menu:plantAdd')}
            </Button>
          </Can>
        </PageEmpty>
      ) : (
        <>
          <Filters />
          <BulkBar shown={view === 'list' ? shownIds : null} />
          {view === 'map' ? (
            <Suspense fallback={<PageLoading />}>
              <PlantMap filters={filters} />
            </Suspense>
          ) : list.isError && !list.data ? (
            <PageError error={list.error} onRetry={() => void list.refetch()} />
          ) : (
            <Suspense fallback={<PageLoading />}>
              <PlantTable
                selectable={selectable}
                rows={rows}
                total={total}
                loading={list.isPending || list.isFetching}
                selection={selection}
                onShare={(row) => setSharing({ id: row.id, name: row.name, timezone: row.timezone })}
                onTransfer={(row) => setTransferring({ id: row.id, name: row.name, timezone: row.timezone })}
                onDelete={(row) => void deleteOne(row)}
              />
            </Suspense>
          )}
        </>
      )}

      <ShareDialog plant={sharing} onClose={() => setSharing(null)} />
      <TransferDialog plant={transferring} onClose={() => setTransferring(null)} />
    </Card>
  );
}

/** Name search (debounced), plant type (-1 = every type), and a reset. */
function Filters() {
  const { t } = useTranslation('plants');
  const { criteria } = usePlantSelection();
  const types = usePlantTypes();
  const [name, setName] = useState(criteria.name);

  // The store is the source: a reset elsewhere empties the box (typing ahead of it is kept).
  useEffect(() => setName((typed) => (typed.trim() === criteria.name ? typed : criteria.name)), [criteria.name]);
  useEffect(() => {
    const next = name.trim();
    if (next === criteria.name) return;
    const timer = setTimeout(() => plantSelection.dispatch({ type: 'criteria', criteria: { name: next } }), NAME_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [name, criteria.name]);

  const typeOptions = [
    { value: -1, label: t('filters.allTypes') },
    ...(types.data ?? [0, 1, 2].map((value) => ({ value, name: t(`types.${value}`) }))).map((x) => ({
      value: x.value,
      label: x.name,
    })),
  ];
  const changed =
    criteria.status || criteria.type !== -1 || criteria.name || criteria.sort !== 'createAt' || criteria.order !== 2;

  return (
    <Flex gap={8} wrap align="center" className={ui.gapBelowSm}>
      <SafeInput
        value={name}
        onChange={setName}
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('filters.name')}
        aria-label={t('filters.name')}
        maxLength={32}
        className={styles.filter}
        data-testid="plant-search"
      />
      <Select
        value={criteria.type}
        options={typeOptions}
        onChange={(type: number) => plantSelection.dispatch({ type: 'criteria', criteria: { type } })}
        className={styles.filter}
        aria-label={t('filters.type')}
        data-testid="plant-type-filter"
      />
      {changed && (
        <Button
          icon={<ReloadOutlined />}
          onClick={() => plantSelection.dispatch({ type: 'criteria', criteria: { ...defaultCriteria } })}
          data-testid="filters-reset"
        >
          {t('filters.reset')}
        </Button>
      )}
    </Flex>
  );
}
