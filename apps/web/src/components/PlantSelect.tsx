/**
 * A plant picker over the plants the caller can see (`plants`, searched by name on the server).
 * A chosen plant that is not among the options (e.g. from the address) is fetched by id.
 */
import { plantsApi } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useApiQuery } from '../api/hooks.ts';

const SEARCH_DEBOUNCE_MS = 300;

export function PlantSelect({
  value,
  onChange,
  placeholder,
  testId,
  width = 220,
  allowClear = true,
}: {
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  placeholder: string;
  testId?: string;
  width?: number;
  allowClear?: boolean;
}) {
  const [typed, setTyped] = useState('');
  const [name, setName] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setName(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const list = useApiQuery(
    plantsApi.listPlants,
    { query: { ...(name ? { name } : {}), sort: 'name', order: 1, page: 1, size: 50 }, quiet: true },
    { placeholderData: keepPreviousData, staleTime: 60_000 },
  );
  const plants = list.data?.list ?? [];
  const known = value === undefined || plants.some((p) => p.id === value);
  const chosen = useApiQuery(
    plantsApi.getPlant,
    { params: { id: value ?? 0 }, quiet: true },
    { enabled: !known, staleTime: 60_000 },
  );

  const options = useMemo(() => {
    const out = plants.map((p) => ({ value: p.id, label: p.name }));
    if (!known && chosen.data) out.unshift({ value: chosen.data.id, label: chosen.data.name });
    return out;
  }, [plants, known, chosen.data]);

  return (
    <Select<number>
      showSearch={{ filterOption: false, onSearch: setTyped, searchValue: typed }}
      allowClear={allowClear}
      value={value}
      options={options}
      loading={list.isFetching}
      placeholder={placeholder}
      aria-label={placeholder}
      onChange={(id) => {
        setTyped('');
        onChange(id ?? undefined);
      }}
      onOpenChange={(open) => {
        if (!open) setTyped('');
      }}
      style={{ width }}
      data-testid={testId}
      notFoundContent={list.isFetching ? undefined : null}
    />
  );
}
