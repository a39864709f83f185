/**
 * /log/uphold (logger.upgrade.record): the maintenance log of the plants the caller sees —
 * upgrades, debug sessions, restarts and power commands — filtered by plant, device SN, kind and
 * a range of days (all time without one), a server page at a time, newest first, with its times
 * in the browser's zone (named). A row opens the entry with its detail and its job's steps. The
 * filters live in the address; an SN that is not one is explained and not sent, one nobody lets
 * the caller see is said under the field.
 */
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { ErrorCode, loggersApi } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Button, Card, DatePicker, Flex, Form, Select } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { PageError } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { PlantSelect } from '../../components/PlantSelect.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { useAddressCriteria } from '../../components/useAddressCriteria.ts';
import { dayString } from '../../lib/dateRange.ts';
import { isValidSn } from '../../lib/deviceSn.ts';
import { browserZone } from '../../lib/zonedTime.ts';
import { criteriaSearch, isFiltered, type LogCriteria, parseCriteria, serverQuery } from './criteria.ts';
import { EntryDrawer } from './EntryDrawer.tsx';
import { MAINTENANCE_KINDS_LIST, type MaintenanceKindName } from './kinds.ts';
import { type LogEntry, LogTable } from './LogTable.tsx';
import styles from './maintenance.module.css';

const SN_DEBOUNCE_MS = 400;

type Change = Partial<Omit<LogCriteria, 'page' | 'size'>>;

function LogFilters({
  criteria,
  snUnknown,
  onChange,
  onReset,
}: {
  criteria: LogCriteria;
  snUnknown: boolean;
  onChange: (change: Change) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation('maintenance');
  const [text, setText] = useState(criteria.sn);
  useEffect(() => setText((typed) => (typed.trim() === criteria.sn ? typed : criteria.sn)), [criteria.sn]);
  useEffect(() => {
    const next = text.trim();
    if (next === criteria.sn) return;
    const timer = setTimeout(() => onChange({ sn: next }), SN_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, criteria.sn, onChange]);
  const typed = text.trim();
  const snError =
    typed && !isValidSn(typed)
      ? t('filters.snInvalid')
      : snUnknown && typed === criteria.sn
        ? t('filters.snUnknown', { sn: typed })
        : null;

  return (
    <Form layout="inline" className={styles.filters} aria-label={t('filters.label')} data-testid="log-filters">
      <Form.Item>
        <PlantSelect
          value={criteria.plantId}
          onChange={(plantId) => onChange({ plantId })}
          placeholder={t('filters.allPlants')}
          testId="log-plant-filter"
        />
      </Form.Item>
      <Form.Item validateStatus={snError ? 'error' : undefined} help={snError ?? undefined}>
        <SafeInput
          value={text}
          onChange={setText}
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('filters.sn')}
          aria-label={t('filters.sn')}
          maxLength={32}
          className={styles.snFilter}
          data-testid="log-sn-filter"
        />
      </Form.Item>
      <Form.Item>
        <Select<MaintenanceKindName | 'all'>
          value={criteria.kind ?? 'all'}
          onChange={(v) => onChange({ kind: v === 'all' ? undefined : v })}
          options={[
            { value: 'all', label: t('filters.allKinds') },
            ...MAINTENANCE_KINDS_LIST.map((k) => ({ value: k, label: t(`kinds.${k}`) })),
          ]}
          aria-label={t('filters.kind')}
          className={styles.kindFilter}
          data-testid="log-kind-filter"
        />
      </Form.Item>
      <Form.Item>
        <DatePicker.RangePicker
          value={criteria.range ? [dayjs(criteria.range.start), dayjs(criteria.range.end)] : null}
          onChange={(values) => {
            const [a, b] = values ?? [];
            onChange({ range: a && b ? { start: dayString(a.toDate()), end: dayString(b.toDate()) } : undefined });
          }}
          disabledDate={(day) => day.isAfter(dayjs(), 'day')}
          aria-label={t('filters.range')}
          data-testid="log-range"
        />
      </Form.Item>
      {isFiltered(criteria) && (
        <Form.Item>
          <Button icon={<ReloadOutlined />} onClick={onReset} data-testid="log-filters-reset">
            {t('filters.reset')}
          </Button>
        </Form.Item>
      )}
    </Form>
  );
}

export default function MaintenanceLogPage() {
  const { t } = useTranslation('maintenance');
  const { criteria, update, onPage, reset } = useAddressCriteria(parseCriteria, criteriaSearch);
  const [timezone] = useState(browserZone);
  const [open, setOpen] = useState<LogEntry | null>(null);

  const badSn = criteria.sn !== '' && !isValidSn(criteria.sn);
  const list = useApiQuery(
    loggersApi.logPage,
    { query: serverQuery(criteria, !badSn), tolerate: [ErrorCode.notFound, ErrorCode.plantMissing] },
    { placeholderData: keepPreviousData, enabled: !badSn },
  );
  const snUnknown = list.error instanceof ApiError && list.error.code === ErrorCode.notFound && criteria.sn !== '';
  const plantGone = list.error instanceof ApiError && list.error.code === ErrorCode.plantMissing;

  const hidden = badSn || snUnknown || plantGone;
  const rows = hidden ? [] : (list.data?.list ?? []);
  const total = hidden ? 0 : (list.data?.total ?? 0);

  return (
    <Card data-testid="maintenance-log-page">
      <Flex className={ui.gapBelow}>
        <PageTitle>{t('menu:maintenanceLog')}</PageTitle>
      </Flex>
      <LogFilters criteria={criteria} snUnknown={snUnknown} onChange={update} onReset={reset} />
      {list.isError && !snUnknown && !plantGone && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <LogTable
          rows={rows}
          total={total}
          loading={!badSn && (list.isPending || list.isFetching)}
          page={criteria.page}
          size={criteria.size}
          timezone={timezone}
          onPage={onPage}
          onOpen={setOpen}
        />
      )}
      <EntryDrawer row={open} onClose={() => setOpen(null)} timezone={timezone} />
    </Card>
  );
}
