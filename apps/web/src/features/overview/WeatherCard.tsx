/**
 * The weather at the plant: its weather station's latest values (`plant/meteorological/{id}/realtime`),
 * or a note that it has none. Users who can edit the plant get a "Station" button: the plant's
 * stations, attaching one by SN and the supported station products.
 */
import { CloudOutlined, EnvironmentOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Flex, Row, Skeleton, Typography } from 'antd';
import { lazy, memo, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardError } from '../../components/CardState.tsx';
import ui from '../../components/ui.module.css';
import { formatMeasure } from '../../lib/format.ts';
import { formatZoned } from '../../lib/zonedTime.ts';
import styles from './overview.module.css';
import { useWeather } from './overviewQueries.ts';

export const WeatherCard = memo(function WeatherCard({
  plantId,
  timezone,
  canEdit = false,
}: {
  plantId: number;
  timezone: string;
  canEdit?: boolean;
}) {
  const { t, i18n } = useTranslation('overview');
  const weather = useWeather(plantId);
  const w = weather.data;
  const rows: Array<{ key: string; value: string }> = w
    ? [
        { key: 'irradiance', value: formatMeasure(w.irradiance, 'W/m²', 0) },
        { key: 'ambient', value: formatMeasure(w.ambientTemperature, '°C') },
        { key: 'module', value: formatMeasure(w.moduleTemperature, '°C') },
        { key: 'wind', value: formatMeasure(w.windSpeed, 'm/s') },
        { key: 'humidity', value: formatMeasure(w.humidity, '%', 0) },
        {
          key: 'dailyIrradiation',
          value: formatMeasure(w.dailyIrradiation === null ? null : w.dailyIrradiation / 1000, 'kWh/m²', 2),
        },
      ]
    : [];

  return (
    <Card
      size="small"
      title={t('weather.title')}
      className={ui.fill}
      data-testid="weather-card"
      extra={
        <Flex gap={8} align="center">
          {w?.source === 'station' && w.stationSn ? (
            <Typography.Text type="secondary" className={ui.note}>
              {t('weather.station', { sn: w.stationSn })}
            </Typography.Text>
          ) : null}
          {canEdit && <WeatherStationsButton plantId={plantId} timezone={timezone} />}
        </Flex>
      }
    >
      {weather.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : weather.isError && !w ? (
        <CardError error={weather.error} onRetry={() => void weather.refetch()} testId="weather-error" />
      ) : !w || w.source === 'none' ? (
        <Empty
          image={<CloudOutlined className={styles.noWeather} />}
          styles={{ image: { height: 44 } }}
          description={t('weather.none')}
          data-testid="weather-none"
        />
      ) : (
        <Flex vertical gap={8}>
          <Row gutter={[12, 12]}>
            {rows.map((r) => (
              <Col span={12} key={r.key}>
                <Flex vertical>
                  <Typography.Text type="secondary" className={styles.caption}>
                    {t(`weather.${r.key}`)}
                  </Typography.Text>
                  <Typography.Text strong data-testid={`weather-${r.key}`}>
                    {r.value}
                  </Typography.Text>
                </Flex>
              </Col>
            ))}
          </Row>
          <Typography.Text type="secondary" className={ui.note}>
            {t('weather.at', { time: formatZoned(w.at, timezone, i18n.language) })}
          </Typography.Text>
        </Flex>
      )}
    </Card>
  );
});

const WeatherStationsDialog = lazy(() => import('./WeatherStations.tsx'));

/** The plant's weather stations: a button, the dialog (with its table) loaded on the first press. */
function WeatherStationsButton({ plantId, timezone }: { plantId: number; timezone: string }) {
  const { t } = useTranslation('overview');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" icon={<EnvironmentOutlined />} onClick={() => setOpen(true)} data-testid="weather-stations">
        {t('stations.button')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <WeatherStationsDialog plantId={plantId} timezone={timezone} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
