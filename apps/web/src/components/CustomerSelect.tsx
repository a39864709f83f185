/**
 * A customer picker (customers and agents by name, from `customers/list`), searched in the
 * browser; the value is the customer's company id. An id the list does not hold is shown as "#id".
 */
import { customersApi } from '@sunfleet/contracts';
import { Select } from 'antd';
import { useMemo } from 'react';
import { useApiQuery } from '../api/hooks.ts';

export function CustomerSelect({
  value,
  onChange,
  placeholder,
  ariaLabel,
  testId,
  className,
}: {
  value?: number | null;
  onChange?: (id: number | null) => void;
  placeholder?: string;
  ariaLabel?: string;
  testId?: string;
  className?: string;
}) {
  const picks = useApiQuery(customersApi.customerPicks, { quiet: true }, { staleTime: 60_000 });
  const options = useMemo(() => {
    const out = (picks.data ?? []).map((c) => ({ value: c.id, label: c.name }));
    if (value != null && !out.some((o) => o.value === value)) out.unshift({ value, label: `#${value}` });
    return out;
  }, [picks.data, value]);
  return (
    <Select<number>
      value={value ?? undefined}
      onChange={(id) => onChange?.(id ?? null)}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={picks.isPending}
      placeholder={placeholder}
      aria-label={ariaLabel ?? placeholder}
      options={options}
      data-testid={testId}
      popupMatchSelectWidth={false}
      className={className}
    />
  );
}
