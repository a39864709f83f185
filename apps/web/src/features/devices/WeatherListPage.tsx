/**
 * /device/weather (weather.view): weather stations with counts per status, filters (plant,
 * status, SN or alias), the server-sorted and paged list with irradiance, temperatures, wind
 * and humidity; a row opens the station's realtime values and day curves.
 */
import { devicesApi } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useApiQuery } from '../../api/hooks.ts';
import { PageEmpty, PageError } from '../../components/PageState.tsx';
import { StatusCards } from '../plants/StatusCards.tsx';
import { DeviceTable } from './DeviceTable.tsx';
import { LIST_MS } from './deviceQueries.ts';
import { formatValue } from './format.ts';
import { DeviceCell, ListFrame, PlaceCell, StatusBadge, When } from './ListParts.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import { countQuery, hasFilters, type ListSpec, listQuery, useListState } from './listState.ts';
import { detailPath, type WeatherRow } from './types.ts';
import './devices.css';

const spec: ListSpec<(typeof devicesApi.weatherSorts)[number]> = {
  sorts: devicesApi.weatherSorts,
  defaultSort: 'sn',
  statuses: devicesApi.deviceStatuses,
};

export default function WeatherListPage() {
  const { t } = useTranslation('devices');
  const navigate = useNavigate();
  const [state, update] = useListState(spec);

  const filters = countQuery(state);
  const counts = useApiQuery(devicesApi.weatherCount, { query: filters }, { refetchInterval: LIST_MS });
  const list = useApiQuery(
    devicesApi.listWeatherStations,
    { query: { ...listQuery(state), ...(state.status ? { status: state.status as WeatherRow['status'] } : {}) } },
    { placeholderData: keepPreviousData, refetchInterval: LIST_MS },
  );
  const rows = Array.isArray(list.data?.list) ? list.data.list : [];
  const total = typeof list.data?.total === 'number' ? list.data.total : 0;
  const right = { align: 'right' as const };

  const columns: TableColumnsType<WeatherRow> = [
    {
      key: 'sn',
      title: t('columns.device'),
      width: 150,
      fixed: 'left',
      sorter: true,
      render: (_, row) => (
        <DeviceCell sn={row.sn} alias={row.alias} to={detailPath('weather', row.sn)} testId={`weather-link-${row.sn}`} />
      ),
    },
    {
      key: 'place',
      title: t('columns.place'),
      width: 170,
      render: (_, row) => <PlaceCell plant={row.plant} gateway={row.gateway} />,
    },
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
    {
      key: 'status',
      title: t('columns.status'),
      width: 104,
      sorter: true,
      render: (_, row) => <StatusBadge status={row.status} testId={`status-${row.sn}`} />,
    },
    {
      key: 'lastUpdate',
      title: t('columns.lastUpdate'),
      width: 140,
      sorter: true,
      render: (_, row) => <When iso={row.lastUpdate} />,
    },
  ];

  const nothingAtAll = counts.data?.total === 0 && !hasFilters(state);
  return (
    <ListFrame title={t('menu:weatherStations')} testId="weather-list-page">
      <StatusCards
        counts={counts.data}
        loading={counts.isPending}
        status={state.status as WeatherRow['status'] | undefined}
        onStatus={(status) => update({ status })}
        statusLabel={(s) => t(`status.${s}`)}
        allLabel={t('all.weather')}
      />
      <ListToolbar
        state={state}
        onChange={update}
        statuses={devicesApi.deviceStatuses.map((s) => ({ value: s, label: t(`status.${s}`) }))}
      />
      {nothingAtAll ? (
        <PageEmpty description={t('empty.weather')} />
      ) : list.isError && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DeviceTable<WeatherRow>
          rowKey="sn"
          columns={columns}
          rows={rows}
          total={total}
          loading={list.isPending || list.isFetching}
          state={state}
          onChange={update}
          onOpen={(row) => navigate(detailPath('weather', row.sn))}
          emptyText={t('noMatch')}
          totalText={(n) => t('total.weather', { count: n })}
          scrollX={1130}
          testId="weather-table"
        />
      )}
    </ListFrame>
  );
}
