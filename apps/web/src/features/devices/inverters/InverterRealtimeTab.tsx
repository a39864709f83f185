/**
 * The inverter's realtime values: DC input (voltage, current, power of each MPPT input or
 * string), AC output (each phase, frequency, active and reactive power, power factor), the I–V
 * plot of the last hour, and the day curves of the input or the output. Every 10 s.
 */
import { Card, Col, Empty, Flex, Row, Segmented, Skeleton, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardError } from '../../../components/CardState.tsx';
import { ChartSkeleton } from '../../../components/ChartSkeleton.tsx';
import { useChartColors } from '../../../components/chartColors.ts';
import { EChart } from '../../../components/EChart.tsx';
import { Figure } from '../../../components/Figure.tsx';
import ui from '../../../components/ui.module.css';
import { ChartCard, useChartState } from '../shared/ChartCard.tsx';
import { pvIvOption } from '../shared/charts.ts';
import { PhaseTable, Updated } from '../shared/DetailParts.tsx';
import { formatValue } from '../shared/format.ts';
import type { InputRealtime, InverterTabProps } from '../shared/types.ts';
import { useInverterRealtime, useInverterSideDay } from './inverterQueries.ts';

type Input = InputRealtime['inputs'][number];

/** Day-curve keys of PV inputs past the model's MPPT count (pv3Voltage on a 2-MPPT inverter) start hidden. */
function inputKeyShown(key: string, mpptCount: number | null): boolean {
  const m = /^pv(\d+)[A-Z]/.exec(key);
  return !m || !mpptCount || Number(m[1]) <= mpptCount;
}

export function InverterRealtimeTab({ inverter: inv, timezone, today }: InverterTabProps) {
  const { t } = useTranslation('devices');
  const colors = useChartColors();
  const { input, output, pvIv } = useInverterRealtime(inv.sn);
  const chart = useChartState(today);
  const [side, setSide] = useState<'input' | 'output'>('input');
  const day = useInverterSideDay(inv.sn, side, chart.date, chart.date === today);
  const ivOption = useMemo(
    () =>
      pvIv.data
        ? pvIvOption(
            {
              ...pvIv.data,
              inputs: pvIv.data.inputs.filter((i) => i.kind !== 'mppt' || !inv.mpptCount || i.index <= inv.mpptCount),
            },
            colors,
            timezone,
            { voltage: t('realtime.voltage'), current: t('realtime.current') },
          )
        : null,
    [pvIv.data, colors, timezone, t, inv.mpptCount],
  );
  const o = output.data;
  // The protocol has register slots for more inputs than the model uses: show its MPPT count.
  const inputs = (input.data?.inputs ?? []).filter((i) => i.kind !== 'mppt' || !inv.mpptCount || i.index <= inv.mpptCount);
  const ivInputs = pvIv.data?.inputs.filter((i) => i.kind !== 'mppt' || !inv.mpptCount || i.index <= inv.mpptCount) ?? [];
  const producing = ivInputs.some((i) => i.points.some((p) => p.voltage > 0 || p.current > 0));
  const curveHidden = useMemo(
    () =>
      (day.data?.series ?? []).filter((s) => /current/i.test(s.key) || !inputKeyShown(s.key, inv.mpptCount)).map((s) => s.key),
    [day.data, inv.mpptCount],
  );

  return (
    <Flex vertical gap={16}>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card
            size="small"
            title={t('realtime.input')}
            extra={<Updated at={input.data?.at} timezone={timezone} />}
            className={ui.fill}
            data-testid="inverter-input"
          >
            {input.isPending ? (
              <Skeleton active />
            ) : input.isError && !input.data ? (
              <CardError error={input.error} onRetry={() => void input.refetch()} />
            ) : (
              <Flex vertical gap={12}>
                <Figure
                  label={t('realtime.dcPower')}
                  value={formatValue(input.data.totalPower, 'W')}
                  testId="input-total-power"
                />
                <Table<Input>
                  size="small"
                  rowKey={(r) => `${r.kind}${r.index}`}
                  pagination={false}
                  dataSource={inputs}
                  locale={{ emptyText: t('noValues') }}
                  data-testid="input-table"
                  columns={[
                    {
                      key: 'name',
                      title: t('realtime.pvInput'),
                      render: (_, r) => (
                        <Flex gap={6} align="center">
                          {r.name}
                          <Tag className={ui.noGapAfter}>{t(`realtime.kind.${r.kind}`)}</Tag>
                        </Flex>
                      ),
                    },
                    {
                      key: 'voltage',
                      title: t('realtime.voltage'),
                      align: 'right',
                      render: (_, r) => formatValue(r.voltage, 'V'),
                    },
                    {
                      key: 'current',
                      title: t('realtime.current'),
                      align: 'right',
                      render: (_, r) => formatValue(r.current, 'A'),
                    },
                    {
                      key: 'power',
                      title: t('realtime.power'),
                      align: 'right',
                      render: (_, r) => <span data-testid={`input-power-${r.name}`}>{formatValue(r.power, 'W')}</span>,
                    },
                  ]}
                />
              </Flex>
            )}
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card
            size="small"
            title={t('realtime.output')}
            extra={<Updated at={o?.at} timezone={timezone} />}
            className={ui.fill}
            data-testid="inverter-output"
          >
            {output.isPending ? (
              <Skeleton active />
            ) : output.isError && !o ? (
              <CardError error={output.error} onRetry={() => void output.refetch()} />
            ) : o ? (
              <Flex vertical gap={12}>
                <Row gutter={[16, 8]}>
                  <Col xs={12} sm={6}>
                    <Figure
                      label={t('realtime.activePower')}
                      value={formatValue(o.activePower, 'W')}
                      testId="output-active-power"
                    />
                  </Col>
                  <Col xs={12} sm={6}>
                    <Figure
                      label={t('realtime.reactivePower')}
                      value={formatValue(o.reactivePower, 'var')}
                      testId="output-reactive"
                    />
                  </Col>
                  <Col xs={12} sm={6}>
                    <Figure label={t('realtime.frequency')} value={formatValue(o.frequency, 'Hz')} testId="output-frequency" />
                  </Col>
                  <Col xs={12} sm={6}>
                    <Figure label={t('realtime.powerFactor')} value={formatValue(o.powerFactor, null, 3)} testId="output-pf" />
                  </Col>
                </Row>
                <PhaseTable phases={o.phases} testId="output-phases" />
              </Flex>
            ) : null}
          </Card>
        </Col>
      </Row>
      <Card
        size="small"
        title={t('realtime.pvIv')}
        extra={<Updated at={pvIv.data?.at} timezone={timezone} />}
        data-testid="inverter-pviv"
      >
        {pvIv.isPending ? (
          <ChartSkeleton height={280} />
        ) : pvIv.isError && !pvIv.data ? (
          <CardError error={pvIv.error} onRetry={() => void pvIv.refetch()} />
        ) : !ivOption || !producing ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('realtime.pvIvEmpty')} data-testid="pviv-empty" />
        ) : (
          <>
            <EChart option={ivOption} height={280} testId="pviv-chart" ariaLabel={t('realtime.pvIv')} />
            <Typography.Text type="secondary" className={ui.note}>
              {t('realtime.pvIvNote')}
            </Typography.Text>
          </>
        )}
      </Card>
      <ChartCard
        testId="io-chart"
        title={
          <Segmented
            value={side}
            onChange={(v) => setSide(v as 'input' | 'output')}
            options={[
              { value: 'input', label: t('realtime.inputCurves') },
              { value: 'output', label: t('realtime.outputCurves') },
            ]}
            data-testid="io-toggle"
          />
        }
        periods={['day']}
        chart={chart}
        timezone={timezone}
        day={day}
        hidden={curveHidden}
      />
    </Flex>
  );
}
