/**
 * The energy report of the selection (`plant/energy/aggregate`): a date range with the
 * quick ranges, at most 90 days and not after today, and the download (see
 * `energyAggregate` in BulkBar.tsx).
 */
import { DownloadOutlined } from '@ant-design/icons';
import { type Endpoint, limits } from '@sunfleet/contracts';
import { App, Button, DatePicker, Flex, Tooltip } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { saveFile } from '../../components/download.ts';
import { allQuickRanges, type DateRange, dayString, quickRange, rangeProblem } from '../../lib/dateRange.ts';

const toDayjs = (day: string) => dayjs(day);

/** Date range (quick ranges, ≤ 90 days, not after today) and the report download. */
export default function ExportEnergy({
  endpoint,
  ids,
  range,
  onRange,
}: {
  endpoint: Endpoint;
  ids: readonly number[];
  range: DateRange;
  onRange: (range: DateRange) => void;
}) {
  const { t } = useTranslation('plants');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const problem = rangeProblem(range);

  const download = async () => {
    setBusy(true);
    try {
      const file = (await (call as (e: Endpoint, i: unknown) => Promise<unknown>)(endpoint, {
        query: { plantIds: ids.join(','), startDate: range.start, endDate: range.end },
      })) as Blob;
      saveFile(file, `energy-${range.start}_${range.end}.xlsx`);
    } catch (err) {
      // A refusal the call tolerates (4: range or plant limit, 700: a plant no longer visible)
      // shows the server's reason; anything else the generic text.
      message.error(err instanceof ApiError && err.tolerated ? err.message : t('bulk.exportFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex align="center" gap={8} data-testid="bulk-export">
      <DatePicker.RangePicker
        size="middle"
        allowClear={false}
        value={[toDayjs(range.start), toDayjs(range.end)]}
        presets={allQuickRanges.map((kind) => {
          const r = quickRange(kind);
          return { label: t(`ranges.${kind}`), value: [toDayjs(r.start), toDayjs(r.end)] as [Dayjs, Dayjs] };
        })}
        disabledDate={(day, info) => {
          if (day.isAfter(dayjs(), 'day')) return true;
          const from = info?.from;
          return from ? Math.abs(day.diff(from, 'day')) >= limits.dateRangeDays : false;
        }}
        onChange={(values) => {
          const [a, b] = values ?? [];
          if (a && b) onRange({ start: dayString(a.toDate()), end: dayString(b.toDate()) });
        }}
        status={problem ? 'error' : undefined}
        aria-label={t('bulk.range')}
      />
      <Tooltip title={problem ? t(`bulk.range_${problem}`, { max: limits.dateRangeDays }) : undefined}>
        <Button
          icon={<DownloadOutlined />}
          disabled={problem !== null}
          loading={busy}
          onClick={() => void download()}
          data-testid="bulk-export-button"
        >
          {t('bulk.export')}
        </Button>
      </Tooltip>
    </Flex>
  );
}
