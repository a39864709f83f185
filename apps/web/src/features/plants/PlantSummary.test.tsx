import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, renderPage, serve } from '../../test/pages.tsx';
import { PlantSummary } from './PlantMap.tsx';

const mapPlant = (id: number) => ({
  id,
  name: `Plant ${id}`,
  type: 0,
  status: 'normal',
  capacity: 10,
  latitude: 37.4,
  longitude: -5.9,
});
const weather = (source: 'station' | 'none') => ({
  source,
  stationSn: source === 'station' ? 'WS0000000001' : null,
  irradiance: source === 'station' ? 640 : null,
  ambientTemperature: source === 'station' ? 21.3 : null,
  moduleTemperature: null,
  windSpeed: null,
  humidity: null,
  dailyIrradiation: null,
  at: null,
});
const T = { timeout: 5000 };

describe('plant map summary', () => {
  it('asks for the plant’s weather and shows irradiance and ambient temperature from its station', async () => {
    const calls = serve([
      ['GET', '/api/v1/plant/1', () => ({ power: 2500, todayEnergy: 12_000 })],
      ['GET', '/api/v1/weather', () => weather('station')],
    ]);
    renderPage(<PlantSummary plant={mapPlant(1) as never} />, { path: '/m', pattern: '/m' });
    expect((await screen.findByTestId('map-summary-weather-1', {}, T)).textContent).toBe('Irradiance 640 W/m² · Ambient 21.3 °C');
    expect(callsTo(calls, '/api/v1/weather')[0]!.url.searchParams.get('plantId')).toBe('1');
  }, 20_000);

  it('shows nothing of the weather when the plant has no station', async () => {
    const calls = serve([
      ['GET', '/api/v1/plant/2', () => ({ power: 2500, todayEnergy: 12_000 })],
      ['GET', '/api/v1/weather', () => weather('none')],
    ]);
    renderPage(<PlantSummary plant={mapPlant(2) as never} />, { path: '/m', pattern: '/m' });
    await waitFor(() => expect(callsTo(calls, '/api/v1/weather')).toHaveLength(1));
    await screen.findByText(/2\.5 kW/, {}, T);
    expect(screen.queryByTestId('map-summary-weather-2')).toBeNull();
  }, 20_000);
});
