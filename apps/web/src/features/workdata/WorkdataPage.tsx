/**
 * /workdata/list (workdata.view): the raw decoded samples of one device over a period (≤ 90 days,
 * quick ranges): plant → device, the parameters (≤ 30, from the device's protocol; empty = its
 * usual set), a chart of up to 6 numeric ones (downsampled by the server), the samples in a
 * virtual table with the server's keyset paging, and the .xlsx download (workdata.export); a second
 * tab lists the device's events in the period, each with its reading (those parameters) at its start.
 * Plant, device and period live in the address, so an event can link here.
 */
import { DownloadOutlined, UndoOutlined } from '@ant-design/icons';
import { limits, workdataApi } from '@sunfleet/contracts';
import { App, Button, Card, Flex, Select, Tabs, Tag, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { useServerLanguage } from '../../api/hooks.ts';
import { downloadFile } from '../../components/download.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { PageEmpty, PageError, PageLoading } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { Permission } from '../../components/Permission.tsx';
import { RangeField, RangeProblem } from '../../components/RangeField.tsx';
import ui from '../../components/ui.module.css';
import { todayIn } from '../../lib/dateNav.ts';
import { type DateRange, quickRange, rangeProblem } from '../../lib/dateRange.ts';
import { isValidSn } from '../../lib/deviceSn.ts';
import { DevicePicker } from './DevicePicker.tsx';
import { useFlowLabels } from './flowLabels.ts';
import { paramTitle, type WorkdataParam } from './format.ts';
import styles from './workdata.module.css';
import { type DeviceKind, useWorkdataParams } from './workdataQueries.ts';

// The chart (echarts) and the tables load once a device is chosen, not with the page's first paint.
const WorkdataChart = lazy(() => import('./WorkdataChart.tsx').then((m) => ({ default: m.WorkdataChart })));
const SampleTable = lazy(() => import('./SampleTable.tsx').then((m) => ({ default: m.SampleTable })));
const WorkdataEvents = lazy(() => import('./WorkdataEvents.tsx').then((m) => ({ default: m.WorkdataEvents })));

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Chart parameters chosen at first: the first measurements (numeric, not enums) of the usual set. */
const DEFAULT_CHART_PARAMS = 2;

function readAddress(params: URLSearchParams) {
  const plant = Number(params.get('plantId'));
  const sn = params.get('sn') ?? '';
  const start = params.get('start') ?? '';
  const end = params.get('end') ?? '';
  return {
    plantId: Number.isInteger(plant) && plant > 0 ? plant : undefined,
    sn: isValidSn(sn) ? sn : undefined,
    /** Chosen in the address; otherwise today of the device's plant. */
    range: DAY.test(start) && DAY.test(end) ? { start, end } : undefined,
  };
}

/** Today in a zone as a one-day range (the browser's today until the device is known). */
function todayRange(timezone: string | undefined): DateRange {
  if (!timezone) return quickRange('today');
  const day = todayIn(timezone);
  return { start: day, end: day };
}

export default function WorkdataPage() {
  const { t } = useTranslation('workdata');
  const [params, setParams] = useSearchParams();
  const { plantId, sn, range: chosenRange } = useMemo(() => readAddress(params), [params]);
  const info = useWorkdataParams(sn);
  const range = chosenRange ?? todayRange(info.data?.timezone);
  const blocked = rangeProblem(range) !== null;

  const update = useCallback(
    (change: { plantId?: number | undefined; sn?: string | undefined; range?: DateRange }) =>
      setParams(
        (current) => {
          const next = { ...readAddress(current), ...change };
          const out = new URLSearchParams();
          if (next.plantId) out.set('plantId', String(next.plantId));
          if (next.sn) out.set('sn', next.sn);
          if (next.range) {
            out.set('start', next.range.start);
            out.set('end', next.range.end);
          }
          return out;
        },
        { replace: true },
      ),
    [setParams],
  );

  // Until the device is known, the picker shows the bare SN.
  const current = info.data ? { sn: info.data.sn, kind: info.data.kind as DeviceKind, alias: info.data.alias } : undefined;

  return (
    <Card data-testid="workdata-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
        <Flex vertical>
          <PageTitle>{t('menu:operationData')}</PageTitle>
          <Typography.Text type="secondary">{t('subtitle')}</Typography.Text>
        </Flex>
      </Flex>

      <Flex gap={8} wrap align="center" className={ui.gapBelowSm} data-testid="workdata-pickers">
        <DevicePicker
          plantId={plantId}
          sn={sn}
          current={current}
          onPlant={(id) => update({ plantId: id, sn: undefined })}
          onDevice={(s) => update({ sn: s })}
        />
        <RangeField range={range} onChange={(r) => update({ range: r })} label={t('filters.range')} testId="workdata-range" />
      </Flex>
      <RangeProblem range={range} ns="workdata" testId="workdata-range-problem" />

      {!sn ? (
        <PageEmpty description={t('empty.choose')} />
      ) : info.isError && !info.data ? (
        <PageError error={info.error} onRetry={() => void info.refetch()} />
      ) : !info.data ? (
        <PageLoading />
      ) : (
        <DeviceData key={info.data.sn} device={info.data} range={range} blocked={blocked} />
      )}
    </Card>
  );
}

type Device = NonNullable<ReturnType<typeof useWorkdataParams>['data']>;

/** One device's parameters, chart and samples (state resets when the device changes). */
function DeviceData({ device, range, blocked }: { device: Device; range: DateRange; blocked: boolean }) {
  const { t } = useTranslation('workdata');
  const { signs } = useFlowLabels();
  const [chosen, setChosen] = useState<string[]>(device.defaults.slice(0, limits.choices));
  const numeric = device.params.filter((p) => p.numeric);
  const [chartKeys, setChartKeys] = useState<string[]>(() => {
    // Measurements first: an enum (work mode…) draws as steps of codes.
    const measured = numeric.filter((p) => !p.options).map((p) => p.key);
    const fromDefaults = device.defaults.filter((k) => measured.includes(k));
    return (fromDefaults.length ? fromDefaults : measured).slice(0, DEFAULT_CHART_PARAMS);
  });
  const byKey = new Map(device.params.map((p) => [p.key, p]));
  const isDefault = chosen.length === device.defaults.length && chosen.every((k, i) => k === device.defaults[i]);
  const [tab, setTab] = useState<'samples' | 'events'>('samples');

  return (
    <Flex vertical gap={12}>
      <Flex gap={8} align="center" wrap data-testid="workdata-device-info">
        <Tag color="blue">{t(`kinds.${device.kind}`)}</Tag>
        <Typography.Text strong className={ui.mono}>
          {device.sn}
        </Typography.Text>
        {device.alias && <Typography.Text>{device.alias}</Typography.Text>}
        <Typography.Text type="secondary">· {t('device.protocol', { protocol: device.protocol })}</Typography.Text>
        <Typography.Text type="secondary">· {t('device.timezone', { timezone: device.timezone })}</Typography.Text>
        <span className={ui.grow} />
        <Permission name="workdata.export">
          <DownloadButton sn={device.sn} range={range} params={chosen} disabled={blocked} />
        </Permission>
      </Flex>

      <Flex gap={8} align="start" wrap>
        <Select<string[]>
          mode="multiple"
          value={chosen}
          onChange={setChosen}
          maxCount={limits.choices}
          allowClear
          options={device.params.map((p: WorkdataParam) => ({
            value: p.key,
            label: paramTitle(p, signs),
          }))}
          optionRender={(option) => {
            const p = byKey.get(String(option.value));
            return (
              <Flex justify="space-between" gap={8}>
                <span>{option.label}</span>
                {p?.stored && (
                  <Tooltip title={t('pick.storedHint')}>
                    <Tag color="green" className={ui.noGapAfter}>
                      {t('pick.stored')}
                    </Tag>
                  </Tooltip>
                )}
              </Flex>
            );
          }}
          showSearch={{ optionFilterProp: 'label' }}
          maxTagCount="responsive"
          placeholder={t('pick.defaults')}
          aria-label={t('pick.params')}
          title={t('pick.paramsHelp', { max: limits.choices })}
          className={styles.params}
          data-testid="workdata-params"
        />
        <Tooltip title={t('pick.paramsHelp', { max: limits.choices })}>
          <Button
            icon={<UndoOutlined />}
            disabled={isDefault}
            onClick={() => setChosen(device.defaults)}
            data-testid="params-reset"
          >
            {t('pick.defaults')}
          </Button>
        </Tooltip>
      </Flex>

      {!blocked && (
        <Suspense fallback={<PageLoading />}>
          <Tabs
            activeKey={tab}
            onChange={(key) => setTab(key === 'events' ? 'events' : 'samples')}
            destroyOnHidden
            data-testid="workdata-tabs"
            items={[
              {
                key: 'samples',
                label: <span data-testid="workdata-tab-samples">{t('tabs.samples')}</span>,
                children: (
                  <Flex vertical gap={12}>
                    <WorkdataChart sn={device.sn} range={range} numeric={numeric} chosen={chartKeys} onChosen={setChartKeys} />
                    <SampleTable
                      key={`${range.start}|${range.end}|${chosen.join(',')}`}
                      sn={device.sn}
                      range={range}
                      params={chosen}
                    />
                  </Flex>
                ),
              },
              {
                key: 'events',
                label: <span data-testid="workdata-tab-events">{t('tabs.events')}</span>,
                children: (
                  <WorkdataEvents
                    key={`${range.start}|${range.end}|${chosen.join(',')}`}
                    sn={device.sn}
                    kind={device.kind as DeviceKind}
                    range={range}
                    params={chosen}
                  />
                ),
              },
            ]}
          />
        </Suspense>
      )}
    </Flex>
  );
}

function DownloadButton({ sn, range, params, disabled }: { sn: string; range: DateRange; params: string[]; disabled: boolean }) {
  const { t } = useTranslation('workdata');
  const { message } = App.useApp();
  const lan = useServerLanguage();
  const download = async () => {
    try {
      await downloadFile(
        workdataApi.workdataDownload,
        { query: { sn, startDate: range.start, endDate: range.end, params, lan } },
        `workdata-${sn}-${range.start}_${range.end}.xlsx`,
      );
    } catch (err) {
      if (err instanceof ApiError && !err.tolerated) return;
      message.error(err instanceof ApiError && err.message ? err.message : t('download.failed'));
    }
  };
  return (
    <Tooltip title={t('download.hint')}>
      <GuardedButton
        type="primary"
        icon={<DownloadOutlined />}
        disabled={disabled}
        onClick={download}
        data-testid="workdata-download"
      >
        {t('download.button')}
      </GuardedButton>
    </Tooltip>
  );
}
