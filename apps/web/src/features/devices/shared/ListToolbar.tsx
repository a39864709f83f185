/**
 * The filters of a device list: plant (searched on the server), status, type (inverters),
 * binding (gateways), SN or alias (debounced), and a reset. Every change goes to the list state
 * in the query string, which sends the list back to its first page.
 */
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Flex, Select } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SafeInput } from '../../../components/SafeInput.tsx';
import ui from '../../../components/ui.module.css';
import { usePlantNamed, usePlantOptions } from './deviceQueries.ts';
import styles from './devices.module.css';
import { hasFilters, KEYWORD_MAX, type ListState } from './listState.ts';

const DEBOUNCE_MS = 300;

/** Plants to filter by: the first 20 by name, or those whose name holds the typed text. */
export function PlantSelect({ value, onChange }: { value: number | undefined; onChange: (id: number | undefined) => void }) {
  const { t } = useTranslation('devices');
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim().slice(0, 32)), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const list = usePlantOptions(search);
  const rows = Array.isArray(list.data?.list) ? list.data.list : [];
  const known = value === undefined || rows.some((p) => p.id === value);
  // A plant chosen earlier (or from a link) that is not among the options: its name.
  const chosen = usePlantNamed(value, !known);
  const options = useMemo(() => {
    const out = rows.map((p) => ({ value: p.id, label: p.name }));
    if (!known && value !== undefined) out.unshift({ value, label: chosen.data?.name ?? `#${value}` });
    return out;
  }, [rows, known, value, chosen.data?.name]);

  return (
    <Select<number>
      showSearch={{ filterOption: false, onSearch: setTyped }}
      allowClear
      value={value}
      options={options}
      loading={list.isFetching}
      placeholder={t('filters.plant')}
      aria-label={t('filters.plant')}
      notFoundContent={list.isFetching ? null : t('filters.noPlants')}
      onChange={(id) => {
        setTyped('');
        onChange(id ?? undefined);
      }}
      onClear={() => onChange(undefined)}
      className={styles.plantFilter}
      data-testid="filter-plant"
    />
  );
}

export function ListToolbar({
  state,
  onChange,
  statuses,
  statusLabel,
  types,
  typeLabel,
  bindings,
  commTypes,
  extra,
}: {
  state: ListState<string>;
  onChange: (change: Partial<ListState<string>>) => void;
  /** Status filter options (value → label). */
  statuses: ReadonlyArray<{ value: string; label: string }>;
  statusLabel?: (value: string) => string;
  types?: ReadonlyArray<{ value: string; label: string }>;
  typeLabel?: string;
  bindings?: ReadonlyArray<{ value: string; label: string }>;
  commTypes?: ReadonlyArray<{ value: string; label: string }>;
  extra?: ReactNode;
}) {
  const { t } = useTranslation('devices');
  const [keyword, setKeyword] = useState(state.keyword);

  // The query string is the source: a reset elsewhere empties the box (typing ahead is kept).
  useEffect(() => setKeyword((typed) => (typed.trim() === state.keyword ? typed : state.keyword)), [state.keyword]);
  useEffect(() => {
    const next = keyword.trim();
    if (next === state.keyword) return;
    const timer = setTimeout(() => onChange({ keyword: next }), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [keyword, state.keyword, onChange]);

  return (
    <Flex gap={8} wrap align="center" className={ui.gapBelowSm} data-testid="list-filters">
      <SafeInput
        value={keyword}
        onChange={setKeyword}
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('filters.keyword')}
        aria-label={t('filters.keyword')}
        maxLength={KEYWORD_MAX}
        className={styles.keywordFilter}
        data-testid="filter-keyword"
      />
      <PlantSelect value={state.plantId} onChange={(plantId) => onChange({ plantId })} />
      <Select<string>
        allowClear
        value={state.status}
        options={statuses.map((s) => ({ value: s.value, label: statusLabel ? statusLabel(s.value) : s.label }))}
        placeholder={t('filters.status')}
        aria-label={t('filters.status')}
        onChange={(status) => onChange({ status: status ?? undefined })}
        className={styles.stateFilter}
        data-testid="filter-status"
      />
      {types && (
        <Select<string>
          allowClear
          value={state.type}
          options={[...types]}
          placeholder={typeLabel ?? t('filters.type')}
          aria-label={typeLabel ?? t('filters.type')}
          onChange={(type) => onChange({ type: type ?? undefined })}
          className={styles.typeFilter}
          popupMatchSelectWidth={false}
          data-testid="filter-type"
        />
      )}
      {bindings && (
        <Select<string>
          allowClear
          value={state.binding}
          options={[...bindings]}
          placeholder={t('filters.binding')}
          aria-label={t('filters.binding')}
          onChange={(binding) => onChange({ binding: binding ?? undefined })}
          className={styles.stateFilter}
          data-testid="filter-binding"
        />
      )}
      {commTypes && (
        <Select<string>
          allowClear
          value={state.commType}
          options={[...commTypes]}
          placeholder={t('filters.commType')}
          aria-label={t('filters.commType')}
          onChange={(commType) => onChange({ commType: commType ?? undefined })}
          className={styles.commFilter}
          data-testid="filter-comm"
        />
      )}
      {hasFilters(state) && (
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            setKeyword('');
            onChange({
              plantId: undefined,
              status: undefined,
              type: undefined,
              binding: undefined,
              commType: undefined,
              keyword: '',
            });
          }}
          data-testid="filters-reset"
        >
          {t('filters.reset')}
        </Button>
      )}
      {extra}
    </Flex>
  );
}
