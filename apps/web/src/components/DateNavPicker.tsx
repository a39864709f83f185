/** DateNav's picker, loaded on its first press: opens at once, focused. */
import { DatePicker, type DatePickerProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChartPeriod, navigate, periodKey } from '../lib/dateNav.ts';
import ui from './ui.module.css';

export interface DateNavPickerProps {
  period: Exclude<ChartPeriod, 'total'>;
  date: string;
  today: string;
  onDate: (date: string) => void;
  presets?: DatePickerProps['presets'];
}

export default function DateNavPicker({ period, date, today, onDate, presets }: DateNavPickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  const picker = period === 'day' ? 'date' : period;
  const format = period === 'day' ? 'YYYY-MM-DD' : period === 'month' ? 'YYYY-MM' : 'YYYY';
  return (
    <DatePicker
      picker={picker}
      allowClear={false}
      format={format}
      value={dayjs(date)}
      open={open}
      onOpenChange={setOpen}
      autoFocus
      className={period === 'day' ? ui.dayPicker : ui.periodPicker}
      aria-label={t('dateNav.pickDate')}
      disabledDate={(d: Dayjs) => periodKey(d.format('YYYY-MM-DD'), period) > periodKey(today, period)}
      presets={presets}
      onChange={(d) => d && onDate(navigate(d.format('YYYY-MM-DD'), period, 0, today))}
      data-testid="date-picker"
    />
  );
}
