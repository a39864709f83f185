/**
 * A chart's date navigation: previous, a picker of the period's kind, next (never after today)
 * and a jump back to the current day, month or year. Nothing for all time.
 *
 * The picker shows as a button with the date until it is first pressed: antd's DatePicker (and its
 * calendar code) then loads and opens in its place, so a chart page's first paint does not carry it.
 */
import { CalendarOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, type DatePickerProps, Space } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChartPeriod, canGoForward, navigate, periodKey, shiftDate } from '../lib/dateNav.ts';
import type { DateNavPickerProps } from './DateNavPicker.tsx';
import ui from './ui.module.css';

const DateNavPicker = lazy(() => import('./DateNavPicker.tsx'));
const loadPicker = () => void import('./DateNavPicker.tsx');

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
  return (
    <Space.Compact data-testid="date-nav">
      <Button
        icon={<LeftOutlined />}
        aria-label={t('dateNav.prev')}
        title={t('dateNav.prev')}
        onClick={() => onDate(shiftDate(date, period, -1))}
        data-testid="date-prev"
      />
      <PickerSlot period={period} date={date} today={today} onDate={onDate} presets={presets} />
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

function PickerSlot(props: DateNavPickerProps) {
  const { t } = useTranslation();
  const [active, setActive] = useState(false);
  const shown = props.period === 'day' ? props.date : props.period === 'month' ? props.date.slice(0, 7) : props.date.slice(0, 4);
  const button = (
    <Button
      className={props.period === 'day' ? ui.dayPicker : ui.periodPicker}
      aria-label={`${t('dateNav.pickDate')}: ${shown}`}
      aria-haspopup="dialog"
      onClick={() => setActive(true)}
      onMouseEnter={loadPicker}
      onFocus={loadPicker}
      data-testid="date-picker"
    >
      <span className={ui.pickerText}>{shown}</span>
      <CalendarOutlined aria-hidden />
    </Button>
  );
  if (!active) return button;
  return (
    <Suspense fallback={button}>
      <DateNavPicker {...props} />
    </Suspense>
  );
}
