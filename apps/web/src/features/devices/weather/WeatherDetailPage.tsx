/**
 * /device/weather/{sn} (hidden; buttons of weather.view): one weather station — its values now
 * (irradiance, ambient and module temperature, wind, humidity, today's irradiation) every 10 s,
 * and its day curves in 5-minute buckets with date navigation. The station's plant, gateway and
 * status come from the station list (searched by its SN); an SN the caller cannot see (404)
 * shows "not found".
 */
import { devicesApi, ErrorCode } from '@sunfleet/contracts';
import { Card, Col, Flex, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { PageError, PageLoading } from '../../../components/PageState.tsx';
import { todayIn } from '../../../lib/dateNav.ts';
import { formatZoned } from '../../../lib/zonedTime.ts';
import { ChartCard, useChartState } from '../shared/ChartCard.tsx';
import { weatherSeries } from '../shared/charts.ts';
import { DetailHeader, DeviceMissing, placeFacts, StatusTag, Updated } from '../shared/DetailParts.tsx';
import { deviceName, formatValue } from '../shared/format.ts';
import '../shared/devices.css';
import { Figure } from '../../../components/Figure.tsx';
import { useWeatherDay, useWeatherRealtime, useWeatherStationSearch } from './weatherQueries.ts';

const BACK = '/device/weather';

export default function WeatherDetailPage() {
  const { t, i18n } = useTranslation('devices');
  const sn = useParams().sn ?? '';
  const valid = new RegExp(devicesApi.SN_PATTERN).test(sn);
  const found = useWeatherStationSearch(sn, valid);
  const station = found.data?.list.find((s) => s.sn === sn);
  const now = useWeatherRealtime(sn, valid);
  const timezone = station?.plant?.timezone ?? 'UTC';
  const today = todayIn(timezone);
  const chart = useChartState(today);
  const day = useWeatherDay(sn, chart.date, { enabled: valid && found.isSuccess, today: chart.date === today });
  const names = useMemo(
    () => ({
      irradiance: t('weather.irradiance'),
      ambientTemperature: t('weather.ambientTemperature'),
      moduleTemperature: t('weather.moduleTemperature'),
      windSpeed: t('weather.windSpeed'),
    }),
    [t],
  );
  const curveData = useMemo(() => (day.data ? weatherSeries(day.data, timezone, names) : undefined), [day.data, timezone, names]);

  const gone = (found.isSuccess && !station) || (now.error instanceof ApiError && now.error.code === ErrorCode.notFound);
  if (!valid || gone) return <DeviceMissing text={t('missing.weather')} back={BACK} backLabel={t('back.weather')} />;
  if (found.isPending) return <PageLoading />;
  if (found.isError) return <PageError error={found.error} onRetry={() => void found.refetch()} />;
  if (!station) return null;
  const w = now.data;

  return (
    <Flex vertical gap={16} data-testid="weather-detail-page">
      <DetailHeader
        testId="weather-header"
        back={BACK}
        backLabel={t('back.weather')}
        title={deviceName(station)}
        subtitle={station.alias ? station.sn : null}
        tags={<StatusTag status={station.state} />}
        facts={[
          ...placeFacts(t, station, station.protocol),
          {
            key: 'lastUpdate',
            label: t('columns.lastUpdate'),
            value: formatZoned(w?.at ?? station.lastUpdate, timezone, i18n.language),
          },
        ]}
      />
      <Card
        size="small"
        title={t('realtime.title')}
        extra={<Updated at={w?.at} timezone={timezone} />}
        loading={now.isPending}
        data-testid="weather-now"
      >
        {now.isError && !w ? (
          <PageError error={now.error} onRetry={() => void now.refetch()} />
        ) : (
          <Row gutter={[16, 16]}>
            {(
              [
                ['irradiance', w?.irradiance, 'W/m²'],
                ['ambientTemperature', w?.ambientTemperature, '°C'],
                ['moduleTemperature', w?.moduleTemperature, '°C'],
                ['windSpeed', w?.windSpeed, 'm/s'],
                ['humidity', w?.humidity, '%'],
                ['dailyIrradiation', w?.dailyIrradiation, 'Wh/m²'],
              ] as const
            ).map(([key, value, unit]) => (
              <Col xs={12} md={8} xl={4} key={key}>
                <Figure label={t(`weather.${key}`)} value={formatValue(value ?? null, unit)} testId={`weather-${key}`} />
              </Col>
            ))}
          </Row>
        )}
      </Card>
      <ChartCard
        testId="weather-chart"
        periods={['day']}
        chart={chart}
        timezone={timezone}
        day={{ ...day, data: curveData }}
        hidden={['windSpeed']}
        title={t('tabs.chart')}
      />
    </Flex>
  );
}
