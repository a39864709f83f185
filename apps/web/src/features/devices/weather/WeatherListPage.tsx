/**
 * /device/weather (weather.view): weather stations with counts per status, filters (plant,
 * status, SN or alias), the server-sorted and paged list with irradiance, temperatures, wind
 * and humidity; a row opens the station's realtime values and day curves.
 */
import { devicesApi } from '@sunfleet/contracts';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { StatusCards } from '../../../components/StatusCards.tsx';
import { DeviceListBody } from '../shared/DeviceTable.tsx';
import { formatValue, stateName } from '../shared/format.ts';
import { ListFrame } from '../shared/ListParts.tsx';
import { ListToolbar } from '../shared/ListToolbar.tsx';
import { deviceColumns } from '../shared/listColumns.tsx';
import { countQuery, type ListSpec, listQuery, useListState } from '../shared/listState.ts';
import { detailPath, type WeatherRow } from '../shared/types.ts';
import '../shared/devices.css';
import { useWeatherCounts, useWeatherList } from './weatherQueries.ts';

const spec: ListSpec<(typeof devicesApi.weatherSorts)[number]> = {
  sorts: devicesApi.weatherSorts,
  defaultSort: 'sn',
  statuses: devicesApi.deviceStatuses,
};

export default function WeatherListPage() {
  const { t, i18n } = useTranslation('devices');
  const navigate = useNavigate();
  const [state, update] = useListState(spec);

  const filters = countQuery(state);
  const counts = useWeatherCounts(filters);
  const list = useWeatherList({ ...listQuery(state), ...(state.status ? { status: state.status as WeatherRow['status'] } : {}) });
  const right = { align: 'right' as const };

  const c = deviceColumns<WeatherRow>(t, 'weather');
  const columns: TableColumnsType<WeatherRow> = [
    c.device,
    c.place,
    {
      key: 'irradiance',
      title: t('columns.irradiance'),
      width: 108,
      sorter: true,
      ...right,
      render: (_, row) => formatValue(row.irradiance, 'W/m²'),
    },
    {
      key: 'ambientTemperature',
      title: t('columns.ambientTemperature'),
      width: 94,
      ...right,
      render: (_, row) => formatValue(row.ambientTemperature, '°C'),
    },
    {
      key: 'moduleTemperature',
      title: t('columns.moduleTemperature'),
      width: 90,
      ...right,
      render: (_, row) => formatValue(row.moduleTemperature, '°C'),
    },
    {
      key: 'windSpeed',
      title: t('columns.windSpeed'),
      width: 84,
      ...right,
      render: (_, row) => formatValue(row.windSpeed, 'm/s'),
    },
    { key: 'humidity', title: t('columns.humidity'), width: 90, ...right, render: (_, row) => formatValue(row.humidity, '%') },
    {
      key: 'dailyIrradiation',
      title: t('columns.dailyIrradiation'),
      width: 124,
      ...right,
      render: (_, row) => formatValue(row.dailyIrradiation, 'Wh/m²'),
    },
    c.status,
    c.lastUpdate,
  ];

  return (
    <ListFrame title={t('menu:weatherStations')} testId="weather-list-page">
      <StatusCards
        counts={counts.data}
        loading={counts.isPending}
        status={state.status as WeatherRow['status'] | undefined}
        onStatus={(status) => update({ status })}
        statusLabel={(s) => stateName(s, i18n.language)}
        allLabel={t('all.weather')}
      />
      <ListToolbar
        state={state}
        onChange={update}
        statuses={devicesApi.deviceStatuses.map((s) => ({ value: s, label: stateName(s, i18n.language) }))}
      />
      <DeviceListBody<WeatherRow>
        list={list}
        countTotal={counts.data?.total}
        emptyDescription={t('empty.weather')}
        rowKey="sn"
        columns={columns}
        state={state}
        onChange={update}
        onOpen={(row) => navigate(detailPath('weather', row.sn))}
        emptyText={t('noMatch')}
        totalText={(n) => t('total.weather', { count: n })}
        testId="weather-table"
      />
    </ListFrame>
  );
}
