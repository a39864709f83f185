/**
 * Time-of-use price segments: up to 6 rows of start, end (HH:mm) and price. Adding
 * splits the last segment, removing gives a row's span to its neighbour and moving a boundary
 * moves the neighbour that met it, so ordinary edits keep the day covered; what is still wrong
 * (gap, overlap, first not at 00:00, last not at 23:59, a bad price) shows next to its row once
 * the editor has been touched or the form submitted. A Form.Item control: `value`/`onChange`.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { limits } from '@sunfleet/contracts';
import { Button, Flex, Form, TimePicker, Typography } from 'antd';
import { NoFormStyle } from 'antd/es/form/context';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../components/NumberInput.tsx';
import ui from '../../components/ui.module.css';
import styles from './plants.module.css';
import {
  addSegment,
  removeSegment,
  type SegmentDraft,
  type SegmentProblem,
  segmentProblems,
  setSegmentTime,
} from './priceSegments.ts';

const FORMAT = 'HH:mm';
const toDayjs = (hhmm: string): Dayjs | null =>
  /^\d{2}:\d{2}$/.test(hhmm)
    ? dayjs()
        .hour(Number(hhmm.slice(0, 2)))
        .minute(Number(hhmm.slice(3)))
        .second(0)
        .millisecond(0)
    : null;

export interface PriceSegmentEditorProps {
  value?: SegmentDraft[];
  onChange?: (value: SegmentDraft[]) => void;
  /** Unit shown after the price, e.g. "EUR/kWh". */
  unit?: string;
  disabled?: boolean;
}

export function PriceSegmentEditor({ value = [], onChange, unit, disabled }: PriceSegmentEditorProps) {
  const { t } = useTranslation('plants');
  const { errors } = Form.Item.useStatus();
  const [touched, setTouched] = useState(false);
  const problems = segmentProblems(value);
  const show = touched || errors.length > 0;

  const change = (next: SegmentDraft[]) => {
    setTouched(true);
    onChange?.(next);
  };
  const text = (p: SegmentProblem) => t(`segments.problem.${p.key}`, { ...p.values });
  const rowProblems = (row: number) => problems.filter((p) => p.row === row);
  const listProblems = problems.filter((p) => p.row === null);
  const fieldError = (row: number, field: SegmentProblem['field']) =>
    show && problems.some((p) => p.row === row && p.field === field) ? ('error' as const) : undefined;

  // NoFormStyle: the Form.Item's error status must not paint every row; each field shows its own.
  return (
    <NoFormStyle status>
      <Flex vertical gap={8} data-testid="price-segments">
        {value.map((segment, row) => (
          // Rows have no identity beyond their place; the editor never reorders them.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <Flex vertical gap={2} key={row} data-testid={`segment-${row}`}>
            <Flex gap={8} align="center" wrap>
              <Typography.Text type="secondary" className={styles.segmentNumber}>
                {row + 1}.
              </Typography.Text>
              <TimePicker
                format={FORMAT}
                value={toDayjs(segment.start)}
                needConfirm={false}
                showNow={false}
                allowClear={false}
                disabled={disabled}
                status={fieldError(row, 'start')}
                placeholder={t('segments.start')}
                aria-label={t('segments.startOf', { row: row + 1 })}
                data-testid={`segment-start-${row}`}
                onChange={(d) => change(setSegmentTime(value, row, 'start', d ? d.format(FORMAT) : ''))}
                className={styles.segmentTime}
              />
              <span aria-hidden>–</span>
              <TimePicker
                format={FORMAT}
                value={toDayjs(segment.end)}
                needConfirm={false}
                showNow={false}
                allowClear={false}
                disabled={disabled}
                status={fieldError(row, 'end')}
                placeholder={t('segments.end')}
                aria-label={t('segments.endOf', { row: row + 1 })}
                data-testid={`segment-end-${row}`}
                onChange={(d) => change(setSegmentTime(value, row, 'end', d ? d.format(FORMAT) : ''))}
                className={styles.segmentTime}
              />
              <NumberInput
                maxDecimals={2}
                value={segment.price}
                disabled={disabled}
                status={fieldError(row, 'price')}
                placeholder={t('segments.price')}
                aria-label={t('segments.priceOf', { row: row + 1 })}
                data-testid={`segment-price-${row}`}
                suffix={unit}
                onChange={(price) => change(value.map((s, i) => (i === row ? { ...s, price: price ?? null } : s)))}
                className={styles.segmentPrice}
              />
              {!disabled && (
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('segments.remove', { row: row + 1 })}
                  onClick={() => change(removeSegment(value, row))}
                  data-testid={`segment-remove-${row}`}
                />
              )}
            </Flex>
            {show &&
              rowProblems(row).map((p) => (
                <Typography.Text key={`${p.field}-${p.key}`} type="danger" className={`${ui.note} ${styles.segmentProblem}`}>
                  {text(p)}
                </Typography.Text>
              ))}
          </Flex>
        ))}
        {show &&
          listProblems.map((p) => (
            <Typography.Text key={p.key} type="danger" className={ui.note}>
              {text(p)}
            </Typography.Text>
          ))}
        {!disabled && (
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            disabled={value.length >= limits.priceSegments}
            onClick={() => change(addSegment(value))}
            className={ui.alignStart}
            data-testid="segment-add"
          >
            {t('segments.add', { count: value.length, max: limits.priceSegments })}
          </Button>
        )}
      </Flex>
    </NoFormStyle>
  );
}
