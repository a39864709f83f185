/** The plant map's base layer: what the web draws under the plants. */
import type { MapTiles } from '../../config.ts';

/**
 * The configured tile server (MAP_TILE_URL), or null: then the web draws the country outlines it
 * bundles and fetches nothing from outside (a portal without internet access still has a map).
 */
export function mapLayer(tiles: MapTiles | null) {
  return { tiles: tiles && { url: tiles.url, attribution: tiles.attribution, maxZoom: tiles.maxZoom } };
}
