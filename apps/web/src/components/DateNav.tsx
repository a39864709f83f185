/**
 * A chart's date navigation: previous, a picker of the period's kind, next (never after today)
 * and a jump back to the current day, month or year. Nothing for all time.
 */
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, DatePicker, type DatePickerProps, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { type ChartPeriod, canGoForward, navigate, periodKey, shiftDate } from '../lib/dateNav.ts';
import ui from './ui.module.css';

export function DateNav({
  period,
  date,
  today,
  onDate,
  presets,
}: {
  period: ChartPeriod;
  date: string;
  today: string;
  onDate: (date: string) => void;
  /** Quick picks of the picker (the overview's today and yesterday). */
  presets?: DatePickerProps['presets'];
}) {
  const { t } = useTranslation();
  if (period === 'total') return null;
  const picker = period === 'day' ? 'date' : period;
  const format = period === 'day' ? 'YYYY-MM-DD' : period === 'month' ? 'YYYY-MM' : 'YYYY';
  return (
    <Space.Compact data-testid="date-nav">
      <Button
        icon={<LeftOutlined />}
        aria-label={t('dateNav.prev')}
        title={t('dateNav.prev')}
        onClick={() => onDate(shiftDate(date, period, -1))}
        data-testid="date-prev"
      />
      <DatePicker
        picker={picker}
        allowClear={false}
        format={format}
        value={dayjs(date)}
        className={period === 'day' ? ui.dayPicker : ui.periodPicker}
        aria-label={t('dateNav.pickDate')}
        disabledDate={(d: Dayjs) => periodKey(d.format('YYYY-MM-DD'), period) > periodKey(today, period)}
        presets={presets}
        onChange={(d) => d && onDate(navigate(d.format('YYYY-MM-DD'), period, 0, today))}
        data-testid="date-picker"
      />
      <Button
        icon={<RightOutlined />}
        aria-label={t('dateNav.next')}
        title={t('dateNav.next')}
        disabled={!canGoForward(date, period, today)}
        onClick={() => onDate(navigate(date, period, 1, today))}
        data-testid="date-next"
      />
      {periodKey(date, period) !== periodKey(today, period) && (
        <Button onClick={() => onDate(today)} data-testid="date-today">
          {t(`dateNav.current.${period}`)}
        </Button>
      )}
    </Space.Compact>
  );
}
