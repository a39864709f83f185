/**
 * The plant map (`plants/map`, the list's filters): the plants with coordinates on a real map.
 * Without a tile server configured on the server (MAP_TILE_URL) it draws the country outlines
 * it bundles and fetches nothing from outside; with one, that server's tiles. Plants close
 * together form clusters with their count and a ring of their statuses; a cluster zooms in
 * when clicked (or lists its plants when they never separate), a plant opens when clicked or
 * on Enter, and shows its figures while hovered or focused. Loaded with its page only, so
 * Leaflet and the outlines are in no other chunk.
 */
import { plantEnergyApi, plantsApi, type QueryOf } from '@sunfleet/contracts';
import { useQuery } from '@tanstack/react-query';
import { Badge, Flex, Spin, Typography } from 'antd';
import { DivIcon, type DivIconOptions, type Map as LeafletMap, latLngBounds } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GeoJSON, MapContainer, Marker, Popup, TileLayer, Tooltip, useMap } from 'react-leaflet';
import { Link, useNavigate } from 'react-router';
import { useApiQuery } from '../../api/hooks.ts';
import { PageEmpty, PageError } from '../../components/PageState.tsx';
import ui from '../../components/ui.module.css';
import { formatCapacity, formatEnergy, formatMeasure, formatPower } from '../../lib/format.ts';
import { meaningVariable } from '../../lib/palette.ts';
import { statusStyle } from '../../lib/statusColours.ts';
import { loadCountries } from './countries.ts';
import {
  clusterPlants,
  type MapPlant,
  type MapPoint,
  type PlantClusters,
  statusesWorstFirst,
  statusRing,
} from './mapClusters.ts';
import styles from './PlantMap.module.css';
import type { PlantStatusName } from './selection.ts';

/** The outlines are coarse (1:110m): deeper than this they would only mislead. */
const OUTLINES_MAX_ZOOM = 10;
/** Fitting to the plants stops here, so a few plants close together keep their surroundings. */
const FIT_MAX_ZOOM = { outlines: 7, tiles: 12 };
/** The whole world in Web Mercator (Leaflet's projection stops at ±85.05°). */
const WORLD = latLngBounds([-85.05, -180], [85.05, 180]);
const plantPath = (p: MapPlant) => `/plants/overview/${p.id}/${p.type}`;
/** Status colours as the theme's CSS variables: markers are markup outside React and follow the company colour too. */
const statusColours = Object.fromEntries(
  plantsApi.plantStatuses.map((s) => [s, `var(${meaningVariable(statusStyle[s].meaning)})`]),
) as Record<PlantStatusName, string>;

export default function PlantMap({ filters }: { filters: QueryOf<typeof plantsApi.plantsMap> }) {
  const { t } = useTranslation('plants');
  const map = useApiQuery(plantsApi.plantsMap, { query: filters }, { refetchInterval: 60_000 });
  // A failure leaves the outlines: the map works without the tile server.
  const layer = useApiQuery(plantsApi.plantsMapLayer, { quiet: true }, { staleTime: Number.POSITIVE_INFINITY });
  const plants = map.data ?? [];

  if (map.isError) return <PageError error={map.error} onRetry={() => void map.refetch()} />;
  const counts = new Map<PlantStatusName, number>();
  for (const p of plants) counts.set(p.status, (counts.get(p.status) ?? 0) + 1);
  const tiles = layer.data?.tiles ?? null;
  const maxZoom = tiles ? tiles.maxZoom : OUTLINES_MAX_ZOOM;

  return (
    <div className={styles.frame} data-testid="plant-map" data-base={tiles ? 'tiles' : 'outlines'}>
      {!layer.isPending && (
        <MapContainer
          center={[20, 0]}
          zoom={2}
          minZoom={1}
          maxZoom={maxZoom}
          zoomSnap={0.25}
          maxBounds={WORLD}
          maxBoundsViscosity={1}
          attributionControl={Boolean(tiles)}
          className={styles.map}
        >
          {tiles ? (
            <TileLayer url={tiles.url} attribution={tiles.attribution} maxZoom={tiles.maxZoom} noWrap />
          ) : (
            <CountryOutlines />
          )}
          <WorldFitsWidth />
          <FitToPlants plants={plants} maxZoom={tiles ? FIT_MAX_ZOOM.tiles : FIT_MAX_ZOOM.outlines} />
          <PlantMarkers plants={plants} maxZoom={maxZoom} />
        </MapContainer>
      )}
      {(map.isPending || layer.isPending) && (
        <Flex align="center" justify="center" className={styles.overlay}>
          <Spin />
        </Flex>
      )}
      {!map.isPending && plants.length === 0 && (
        <Flex align="center" justify="center" className={styles.overlay}>
          <div className={styles.empty} data-testid="plant-map-empty">
            <PageEmpty description={t('map.empty')} />
          </div>
        </Flex>
      )}
      <Flex gap={12} wrap data-testid="map-legend" className={styles.legend}>
        {plantsApi.plantStatuses.map((s) => (
          <Flex key={s} align="center" gap={6}>
            {/* The status's own colour. */}
            <span className={styles.legendDot} style={{ background: statusColours[s] }} />
            <Typography.Text className={ui.note}>
              {t(`status.${s}`)} {counts.get(s) ?? 0}
            </Typography.Text>
          </Flex>
        ))}
      </Flex>
    </div>
  );
}

/** Leaflet's options for the outlines: not clickable, each country path given the class its look is in. */
const outlineOptions = { interactive: false, style: { className: styles.country } };

/** The bundled country outlines, drawn once they have loaded (a chunk of their own). */
function CountryOutlines() {
  const countries = useQuery({
    queryKey: ['map', 'countries-110m'],
    queryFn: loadCountries,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  if (!countries.data) return null;
  return <GeoJSON data={countries.data} {...outlineOptions} />;
}

/** The least zoom shows the world across the whole width, never a world beside empty space. */
function WorldFitsWidth() {
  const map = useMap();
  useEffect(() => {
    const fit = () => {
      const least = map.getBoundsZoom(WORLD, true);
      // Zoomed first and not animated: setMinZoom above the zoom would start an animated zoom
      // that lands after, and undoes, the fit to the plants.
      if (map.getZoom() < least) map.setZoom(least, { animate: false });
      map.setMinZoom(least);
    };
    fit();
    map.on('resize', fit);
    return () => {
      map.off('resize', fit);
    };
  }, [map]);
  return null;
}

/** Fit the view to the plants whenever the set of plants changes (a filter, a plant moved). */
function FitToPlants({ plants, maxZoom }: { plants: readonly MapPlant[]; maxZoom: number }) {
  const map = useMap();
  const key = plants.map((p) => `${p.id}:${p.latitude}:${p.longitude}`).join('|');
  // The first fit is not animated: the map opens in place, and a click in its first moments is
  // not lost (Leaflet ignores a new view while a zoom animates).
  const fitted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: refit only when the set of points changes (`key`)
  useEffect(() => {
    if (plants.length === 0) return;
    const animate = fitted.current;
    fitted.current = true;
    if (plants.length === 1) map.setView([plants[0]!.latitude, plants[0]!.longitude], maxZoom, { animate });
    else map.fitBounds(latLngBounds(plants.map((p) => [p.latitude, p.longitude])), { padding: [48, 48], maxZoom, animate });
  }, [map, key]);
  return null;
}

/** What the map shows: its bounds, a little beyond so markers do not pop in at the edges, and zoom. */
function viewOf(map: LeafletMap): { bbox: [number, number, number, number]; zoom: number } {
  const b = map.getBounds().pad(0.25);
  return {
    bbox: [
      Math.max(-180, b.getWest()),
      Math.max(-85.05, b.getSouth()),
      Math.min(180, b.getEast()),
      Math.min(85.05, b.getNorth()),
    ],
    zoom: map.getZoom(),
  };
}

/** A div icon whose element carries an accessible name (Leaflet sets none on a div icon). */
class LabelledIcon extends DivIcon {
  constructor(
    options: DivIconOptions,
    private readonly label: string,
  ) {
    super(options);
  }
  override createIcon(old?: HTMLElement): HTMLElement {
    const el = super.createIcon(old);
    el.setAttribute('aria-label', this.label);
    return el;
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The markers of the plants and clusters in view. */
function PlantMarkers({ plants, maxZoom }: { plants: readonly MapPlant[]; maxZoom: number }) {
  const { t } = useTranslation('plants');
  const map = useMap();
  const navigate = useNavigate();
  const clusters = useMemo(() => clusterPlants(plants, maxZoom), [plants, maxZoom]);
  const [view, setView] = useState(() => viewOf(map));
  // Also once after mounting: the fit to the plants may have moved the map before this listened.
  useEffect(() => {
    const follow = () => setView(viewOf(map));
    follow();
    map.on('moveend resize', follow);
    return () => {
      map.off('moveend resize', follow);
    };
  }, [map]);
  const points = useMemo(() => clusters.points(view.bbox, view.zoom), [clusters, view]);
  const [listing, setListing] = useState<{ id: number; lat: number; lng: number; index: PlantClusters } | null>(null);
  // One icon object per look, so a re-render does not rebuild the markers' elements; a new set of
  // plants starts a new cache, so it holds only the looks of the plants shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: emptied when the clusters are rebuilt
  const icons = useMemo(() => new Map<string, DivIcon>(), [clusters]);
  const icon = (key: string, make: () => DivIcon) => {
    const found = icons.get(key) ?? make();
    icons.set(key, found);
    return found;
  };

  const open = (plant: MapPlant) => navigate(plantPath(plant));
  const expand = (point: Extract<MapPoint, { kind: 'cluster' }>) => {
    const zoom = clusters.expansionZoom(point.id);
    if (zoom <= map.getMaxZoom()) map.setView([point.lat, point.lng], zoom);
    else setListing({ id: point.id, lat: point.lat, lng: point.lng, index: clusters });
  };
  const activated = (e: { originalEvent: KeyboardEvent }) => e.originalEvent.key === 'Enter' || e.originalEvent.key === ' ';

  return (
    <>
      {points.map((point) => {
        if (point.kind === 'plant') {
          const { plant } = point;
          const label = t('map.plantLabel', { name: plant.name, status: t(`status.${plant.status}`) });
          return (
            <Marker
              key={`plant-${plant.id}`}
              position={[point.lat, point.lng]}
              icon={icon(`plant-${plant.id}:${plant.status}:${label}`, () => plantIcon(plant, label))}
              eventHandlers={{
                click: () => open(plant),
                keydown: (e) => {
                  if (activated(e as unknown as { originalEvent: KeyboardEvent })) open(plant);
                },
              }}
            >
              <Tooltip direction="top" offset={[0, -10]} className={styles.tooltip}>
                <PlantSummary plant={plant} />
              </Tooltip>
            </Marker>
          );
        }
        const statuses = statusesWorstFirst(point.statuses)
          .map(([s, n]) => `${n} ${t(`status.${s}`).toLowerCase()}`)
          .join(', ');
        const label = t('map.clusterLabel', { count: point.count, statuses });
        return (
          <Marker
            key={`cluster-${point.id}`}
            position={[point.lat, point.lng]}
            icon={icon(`cluster-${point.id}:${label}`, () => clusterIcon(point, label))}
            title={label}
            eventHandlers={{
              click: () => expand(point),
              keydown: (e) => {
                if (activated(e as unknown as { originalEvent: KeyboardEvent })) expand(point);
              },
            }}
          />
        );
      })}
      {listing && (
        <Popup
          position={[listing.lat, listing.lng]}
          className={styles.listing}
          eventHandlers={{ remove: () => setListing(null) }}
        >
          <Flex vertical gap={4} data-testid="map-cluster-list">
            {listing.index.plants(listing.id).map((p) => (
              <Link key={p.id} to={plantPath(p)}>
                <Badge status={statusStyle[p.status].badge} text={p.name} />
              </Link>
            ))}
          </Flex>
        </Popup>
      )}
    </>
  );
}

function plantIcon(plant: MapPlant, label: string): DivIcon {
  return new LabelledIcon(
    {
      className: `${styles.plantMarker} sf-plant-marker`,
      html: `<span class="${styles.dot}" data-plant="${plant.id}" data-status="${plant.status}" style="--sf-status: ${statusColours[plant.status]}"></span>`,
      iconSize: [18, 18],
      iconAnchor: [9, 9],
      tooltipAnchor: [0, 0],
    },
    label,
  );
}

function clusterIcon(point: Extract<MapPoint, { kind: 'cluster' }>, label: string): DivIcon {
  // Larger for more plants: 34 px for a pair, up to 50 px.
  const size = Math.min(50, 30 + Math.round(Math.log10(point.count) * 10));
  return new LabelledIcon(
    {
      className: `${styles.clusterMarker} sf-plant-cluster`,
      html: `<span class="${styles.ring}" style="background: ${escapeHtml(statusRing(point.statuses, statusColours))}"><span class="${styles.count}">${point.count}</span></span>`,
      iconSize: [size, size],
      iconAnchor: [size / 2, size / 2],
    },
    label,
  );
}

/** A plant's figures beside its marker: status, capacity, power and energy now, its weather station. */
export function PlantSummary({ plant }: { plant: MapPlant }) {
  const { t } = useTranslation('plants');
  // The tooltip's content mounts when it opens, so this asks only for the plant pointed at.
  const detail = useApiQuery(plantsApi.getPlant, { params: { id: plant.id } });
  const weather = useApiQuery(plantEnergyApi.weather, { query: { plantId: plant.id }, quiet: true }, { staleTime: 60_000 });
  const w = weather.data;
  return (
    <Flex vertical gap={4} className={styles.summary} data-testid={`map-summary-${plant.id}`}>
      <Typography.Text strong>{plant.name}</Typography.Text>
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
        <Typography.Text type="secondary" className={ui.note} data-testid={`map-summary-weather-${plant.id}`}>
          {t('map.weather', {
            irradiance: formatMeasure(w.irradiance, 'W/m²', 0),
            ambient: formatMeasure(w.ambientTemperature, '°C'),
          })}
        </Typography.Text>
      )}
    </Flex>
  );
}
