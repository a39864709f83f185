/**
 * The plant map (`plants/map`, same filters as the list): one circle marker per plant with
 * coordinates, coloured by status, with a popup (name, status, capacity, power now, and the
 * weather station's irradiance and ambient temperature when the plant has one, link). The
 * tile layer comes from VITE_MAP_TILE_URL; without it (the default, offline) no tile is fetched
 * and the markers sit on a plain themed background with a lat/lon grid. Loaded on demand, so
 * Leaflet is not part of the list's chunk.
 */
import { type DataOf, plantEnergyApi, plantsApi, type QueryOf } from '@sunfleet/contracts';
import { Badge, Flex, Spin, Typography, theme } from 'antd';
import { divIcon, latLngBounds } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, MapContainer, Marker, Polyline, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/hooks.ts';
import { PageEmpty, PageError } from '../../components/PageState.tsx';
import { formatCapacity, formatEnergy, formatMeasure, formatPower } from '../../lib/format.ts';
import { statusStyle } from '../../lib/palette.ts';
import './plants.css';
import ui from '../../components/ui.module.css';
import styles from './plants.module.css';
import type { PlantStatusName } from './selection.ts';

type MapPlant = DataOf<typeof plantsApi.plantsMap>[number];

const tileUrl: string | undefined = import.meta.env.VITE_MAP_TILE_URL || undefined;
const tileAttribution: string | undefined = import.meta.env.VITE_MAP_TILE_ATTRIBUTION || undefined;
export const MAP_HEIGHT = 600;

export default function PlantMap({ filters }: { filters: QueryOf<typeof plantsApi.plantsMap> }) {
  const { t } = useTranslation('plants');
  const { token } = theme.useToken();
  const map = useApiQuery(plantsApi.plantsMap, { query: filters }, { refetchInterval: 60_000 });
  const plants = map.data ?? [];

  if (map.isError) return <PageError error={map.error} onRetry={() => void map.refetch()} />;
  const counts = new Map<PlantStatusName, number>();
  for (const p of plants) counts.set(p.status, (counts.get(p.status) ?? 0) + 1);

  return (
    <div className={styles.frame} data-testid="plant-map">
      <MapContainer
        center={[20, 0]}
        zoom={2}
        minZoom={2}
        maxZoom={18}
        worldCopyJump
        attributionControl={Boolean(tileUrl)}
        className={`sf-plant-map ${styles.map}`}
      >
        {tileUrl ? <TileLayer url={tileUrl} attribution={tileAttribution} /> : <Graticule color={token.colorBorderSecondary} />}
        <FitToPlants plants={plants} />
        {plants.map((p) => (
          <CircleMarker
            key={p.id}
            center={[p.latitude, p.longitude]}
            radius={8}
            pathOptions={{
              color: token.colorBgContainer,
              weight: 2,
              fillColor: statusStyle[p.status].color,
              fillOpacity: 0.95,
            }}
            className={`sf-marker sf-marker-${p.status}`}
          >
            <Popup className="sf-map-popup">
              <PlantPopup plant={p} />
            </Popup>
          </CircleMarker>
        ))}
      </MapContainer>
      {map.isPending && (
        <Flex align="center" justify="center" className={styles.mapOverlay}>
          <Spin />
        </Flex>
      )}
      {!map.isPending && plants.length === 0 && (
        <Flex align="center" justify="center" className={styles.mapOverlay}>
          <div className={styles.mapEmpty}>
            <PageEmpty description={t('map.empty')} />
          </div>
        </Flex>
      )}
      <Flex gap={12} wrap data-testid="map-legend" className={styles.legend}>
        {plantsApi.plantStatuses.map((s) => (
          <Flex key={s} align="center" gap={6}>
            {/* The status's own colour. */}
            <span className={styles.legendDot} style={{ background: statusStyle[s].color }} />
            <Typography.Text className={ui.note}>
              {t(`status.${s}`)} {counts.get(s) ?? 0}
            </Typography.Text>
          </Flex>
        ))}
      </Flex>
    </div>
  );
}

export function PlantPopup({ plant }: { plant: MapPlant }) {
  const { t } = useTranslation('plants');
  const detail = useApiQuery(plantsApi.getPlant, { params: { id: plant.id } });
  // The popup's content mounts when it opens, so this asks only for the plant clicked.
  const weather = useApiQuery(plantEnergyApi.weather, { query: { plantId: plant.id }, quiet: true }, { staleTime: 60_000 });
  const w = weather.data;
  return (
    <Flex vertical gap={4} className={styles.popup} data-testid={`map-popup-${plant.id}`}>
      <Link to={`/plants/overview/${plant.id}/${plant.type}`} className={styles.popupLink}>
        {plant.name}
      </Link>
      <Badge status={statusStyle[plant.status].badge} text={t(`status.${plant.status}`)} />
      <Typography.Text className={ui.note}>
        {t('columns.capacity')}: {formatCapacity(plant.capacity)}
      </Typography.Text>
      <Typography.Text className={ui.note}>
        {t('columns.power')}: {detail.isPending ? '…' : formatPower(detail.data?.power)}
      </Typography.Text>
      <Typography.Text className={ui.note}>
        {t('columns.todayEnergy')}: {detail.isPending ? '…' : formatEnergy(detail.data?.todayEnergy)}
      </Typography.Text>
      {w?.source === 'station' && (
        <Typography.Text type="secondary" className={ui.note} data-testid={`map-popup-weather-${plant.id}`}>
          {t('map.weather', {
            irradiance: formatMeasure(w.irradiance, 'W/m²', 0),
            ambient: formatMeasure(w.ambientTemperature, '°C'),
          })}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** Fit the view to the markers whenever the set of plants changes. */
function FitToPlants({ plants }: { plants: readonly MapPlant[] }) {
  const map = useMap();
  const key = plants.map((p) => `${p.id}:${p.latitude}:${p.longitude}`).join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: refit only when the set of points changes (`key`)
  useEffect(() => {
    if (plants.length === 0) return;
    if (plants.length === 1) {
      map.setView([plants[0]!.latitude, plants[0]!.longitude], 10);
      return;
    }
    map.fitBounds(latLngBounds(plants.map((p) => [p.latitude, p.longitude])), { padding: [48, 48], maxZoom: 12 });
  }, [map, key]);
  return null;
}

const STEPS = [30, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005];

/** "38°N", "4.5°W": a grid line's label. */
export function degreeLabel(value: number, axis: 'lat' | 'lng'): string {
  const rounded = Math.round(value * 1000) / 1000;
  const hemisphere = rounded === 0 ? '' : axis === 'lat' ? (rounded > 0 ? 'N' : 'S') : rounded > 0 ? 'E' : 'W';
  return `${Math.abs(rounded)}°${hemisphere}`;
}

/** Latitude and longitude lines with their labels, about 4–10 across the view, redrawn as the map moves. */
function Graticule({ color }: { color: string }) {
  const map = useMap();
  const [view, setView] = useState(() => map.getBounds());
  useMapEvents({ moveend: () => setView(map.getBounds()) });
  const grid = useMemo(() => {
    const west = view.getWest();
    const east = view.getEast();
    const south = Math.max(view.getSouth(), -85);
    const north = Math.min(view.getNorth(), 85);
    const span = Math.max(east - west, north - south);
    const step = STEPS.find((s) => span / s >= 4) ?? STEPS.at(-1)!;
    // Labels sit just inside the bottom and left edges.
    const labelLat = south + (north - south) * 0.02;
    const labelLng = west + (east - west) * 0.005;
    const lines: Array<{ key: string; positions: [number, number][]; label: string; at: [number, number] }> = [];
    for (let x = Math.ceil(west / step) * step; x <= east && lines.length < 80; x += step)
      lines.push({
        key: `x${x.toFixed(4)}`,
        positions: [
          [south, x],
          [north, x],
        ],
        label: degreeLabel(x > 180 ? x - 360 : x < -180 ? x + 360 : x, 'lng'),
        at: [labelLat, x],
      });
    for (let y = Math.ceil(south / step) * step; y <= north && lines.length < 160; y += step)
      lines.push({
        key: `y${y.toFixed(4)}`,
        positions: [
          [y, west],
          [y, east],
        ],
        label: degreeLabel(y, 'lat'),
        at: [y, labelLng],
      });
    return lines;
  }, [view]);
  return (
    <>
      {grid.map((line) => (
        <Polyline
          key={line.key}
          positions={line.positions}
          pathOptions={{ color, weight: 1, opacity: 0.9, interactive: false }}
        />
      ))}
      {grid.map((line) => (
        <Marker
          key={`label-${line.key}`}
          position={line.at}
          interactive={false}
          keyboard={false}
          icon={divIcon({ className: 'sf-grid-label', html: line.label, iconSize: [0, 0], iconAnchor: [-4, 14] })}
        />
      ))}
    </>
  );
}
