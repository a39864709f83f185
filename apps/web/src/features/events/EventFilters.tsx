/**
 * The filters of the events page: plant, a search box (debounced: part of an SN, alias or plant
 * name, sent from 2 characters; a link's exact SN shows in it until something else is typed),
 * device type, state (all, open, closed), acknowledgement, the start-date range with quick
 * ranges, and a reset.
 */
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { eventsApi } from '@sunfleet/contracts';
import { Button, Form, Segmented, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlantSelect } from '../../components/PlantSelect.tsx';
import { RangeField } from '../../components/RangeField.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import type { DateRange } from '../../lib/dateRange.ts';
import { isValidSn } from '../../lib/deviceSn.ts';
import type { EventStateName } from '../../lib/events.ts';
import { type EventCriteria, type Kind, kinds, searchReady } from './criteria.ts';
import styles from './events.module.css';

const SEARCH_DEBOUNCE_MS = 400;

type Change = Partial<Omit<EventCriteria, 'page' | 'size'>>;

export function EventFilters({
  criteria,
  snUnknown,
  filtered,
  onChange,
  onReset,
}: {
  criteria: EventCriteria;
  /** The server knows no visible device with the SN sent (404). */
  snUnknown: boolean;
  filtered: boolean;
  onChange: (change: Change) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation('events');
  // A link's exact SN, else the search: what the box shows.
  const shown = criteria.sn || criteria.search;
  const [text, setText] = useState(shown);

  // The address is the source: a reset elsewhere empties the box (typing ahead of it is kept).
  useEffect(() => setText((typed) => (typed.trim() === shown ? typed : shown)), [shown]);
  useEffect(() => {
    const next = text.trim();
    if (next === shown) return;
    const timer = setTimeout(() => onChange({ search: next, sn: '' }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, shown, onChange]);

  const typed = text.trim();
  const linkedSn = criteria.sn !== '' && typed === criteria.sn;
  const snError = linkedSn
    ? !isValidSn(typed)
      ? t('filters.snInvalid')
      : snUnknown
        ? t('filters.snUnknown', { sn: typed })
        : null
    : typed && !searchReady(typed)
      ? t('filters.searchShort', { min: eventsApi.EVENT_SEARCH_MIN })
      : null;
  const state = criteria.state ?? 'all';
  const ack = criteria.acknowledged === undefined ? 'all' : criteria.acknowledged ? 'yes' : 'no';

  return (
    <Form layout="inline" className={styles.filters} aria-label={t('filters.label')} data-testid="event-filters">
      <Form.Item>
        <PlantSelect
          value={criteria.plantId}
          onChange={(plantId) => onChange({ plantId })}
          placeholder={t('filters.allPlants')}
          testId="event-plant-filter"
        />
      </Form.Item>
      <Form.Item validateStatus={snError ? 'error' : undefined} help={snError ?? undefined}>
        <SafeInput
          value={text}
          onChange={setText}
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('filters.search')}
          aria-label={t('filters.search')}
          title={t('filters.searchHint')}
          maxLength={eventsApi.EVENT_SEARCH_MAX}
          className={styles.snFilter}
          data-testid="event-sn-filter"
        />
      </Form.Item>
      <Form.Item>
        <Select<Kind | 'all'>
          value={criteria.kind ?? 'all'}
          onChange={(v) => onChange({ kind: v === 'all' ? undefined : v })}
          options={[{ value: 'all', label: t('filters.allKinds') }, ...kinds.map((k) => ({ value: k, label: t(`kinds.${k}`) }))]}
          aria-label={t('filters.kind')}
          className={styles.kindFilter}
          data-testid="event-kind-filter"
        />
      </Form.Item>
      <Form.Item>
        <Segmented<EventStateName | 'all'>
          value={state}
          onChange={(v) => onChange({ state: v === 'all' ? undefined : v })}
          options={[
            { value: 'all', label: t('filters.stateAll') },
            { value: 'open', label: t('filters.open') },
            { value: 'closed', label: t('filters.closed') },
          ]}
          aria-label={t('filters.state')}
          data-testid="event-state-filter"
        />
      </Form.Item>
      <Form.Item>
        <Select<'all' | 'yes' | 'no'>
          value={ack}
          onChange={(v) => onChange({ acknowledged: v === 'all' ? undefined : v === 'yes' })}
          options={[
            { value: 'all', label: t('filters.ackAll') },
            { value: 'yes', label: t('filters.ackYes') },
            { value: 'no', label: t('filters.ackNo') },
          ]}
          aria-label={t('filters.ack')}
          className={styles.ackFilter}
          data-testid="event-ack-filter"
        />
      </Form.Item>
      <Form.Item>
        <RangeField
          range={criteria.range}
          onChange={(range: DateRange) => onChange({ range })}
          label={t('filters.range')}
          testId="event-range"
        />
      </Form.Item>
      {filtered && (
        <Form.Item className={styles.reset}>
          <Button icon={<ReloadOutlined />} onClick={onReset} data-testid="event-filters-reset">
            {t('filters.reset')}
          </Button>
        </Form.Item>
      )}
    </Form>
  );
}
