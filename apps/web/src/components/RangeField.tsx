/**
 * A date range with the quick ranges (today … last 90 days), never after today (`today`: the
 * plant's on a plant's page, the browser's unless told). A
 * range over 90 days (or ending before it starts) is shown in error, and `RangeProblem` tells
 * why: the pages do not ask the server for it.
 */
import { limits } from '@sunfleet/contracts';
import { Alert, DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { allQuickRanges, type DateRange, dayDate, dayString, quickRange, rangeProblem } from '../lib/dateRange.ts';
import parts from './parts.module.css';
import ui from './ui.module.css';

export function RangeField({
  range,
  onChange,
  label,
  testId,
  today = dayString(new Date()),
}: {
  range: DateRange;
  onChange: (range: DateRange) => void;
  label: string;
  testId?: string;
  /** YYYY-MM-DD. */
  today?: string;
}) {
  const { t } = useTranslation('plants');
  const problem = rangeProblem(range);
  return (
    <DatePicker.RangePicker
      allowClear={false}
      value={[dayjs(range.start), dayjs(range.end)]}
      presets={allQuickRanges.map((kind) => {
        const r = quickRange(kind, dayDate(today));
        return { label: t(`ranges.${kind}`), value: [dayjs(r.start), dayjs(r.end)] as [Dayjs, Dayjs] };
      })}
      disabledDate={(day) => day.format('YYYY-MM-DD') > today}
      onChange={(values) => {
        const [a, b] = values ?? [];
        if (a && b) onChange({ start: dayString(a.toDate()), end: dayString(b.toDate()) });
      }}
      status={problem ? 'error' : undefined}
      aria-label={label}
      data-testid={testId}
      className={parts.rangeField}
    />
  );
}

/** Why the range is refused (an error banner), or nothing when it is fine. */
export function RangeProblem({ range, ns, testId }: { range: DateRange; ns: 'events' | 'workdata'; testId: string }) {
  const { t } = useTranslation(ns);
  const problem = rangeProblem(range);
  if (!problem) return null;
  return (
    <Alert
      type="error"
      showIcon
      title={t(`filters.range_${problem}`, { max: limits.dateRangeDays })}
      data-testid={testId}
      className={ui.gapBelowSm}
    />
  );
}
