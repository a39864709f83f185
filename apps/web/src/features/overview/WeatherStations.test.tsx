import { ErrorCode } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, fail, renderPage, serve } from '../../test/pages.tsx';
import { WeatherCard } from './WeatherCard.tsx';

const REALTIME = '/api/v1/plant/meteorological/7/realtime';
const weather = {
  source: 'station',
  stationSn: 'WS0000000001',
  irradiance: 812.4,
  ambientTemperature: 24.5,
  moduleTemperature: 41.2,
  windSpeed: 3.1,
  humidity: 40,
  dailyIrradiation: 4200,
  at: '2026-05-20T10:00:00.000Z',
};
const station = (sn: string, alias: string | null = null) => ({
  sn,
  alias,
  protocol: 'sunfleet-weather',
  status: 'normal',
  gatewaySn: 'SFGW000001',
  lastUpdate: '2026-05-20T10:00:00.000Z',
});

function routes(attach: (sn: string) => unknown = (sn) => station(sn)) {
  return serve([
    ['GET', REALTIME, () => weather],
    ['GET', '/api/v1/getWeatherStationInfo', () => [station('WS0000000001', 'Roof station')]],
    [
      'GET',
      '/api/v1/getWeatherStationProduct',
      () => [{ protocol: 'sunfleet-weather', name: 'Sunfleet weather station', fields: ['irradiance', 'ambientTemperature'] }],
    ],
    ['POST', '/api/v1/saveAuthInfo', (c) => attach(new URLSearchParams(c.body ?? '').get('sn') ?? '')],
  ]);
}

const show = (canEdit: boolean) =>
  renderPage(<WeatherCard plantId={7} timezone="Europe/Madrid" canEdit={canEdit} />, { path: '/w', pattern: '/w' });
const T = { timeout: 5000 };

describe('weather card and stations', () => {
  it('reads the plant’s station values from plant/meteorological/{id}/realtime; no Station button without edit rights', async () => {
    const calls = routes();
    show(false);
    expect((await screen.findByTestId('weather-irradiance', {}, T)).textContent).toBe('812 W/m²');
    expect(screen.getByTestId('weather-ambient').textContent).toBe('24.5 °C');
    expect(callsTo(calls, REALTIME)).toHaveLength(1);
    expect(callsTo(calls, '/api/v1/weather')).toHaveLength(0);
    expect(screen.queryByTestId('weather-stations')).toBeNull();
  }, 20_000);

  it('lists the stations, attaches one by SN with {plantId, sn} and refetches the card', async () => {
    const calls = routes();
    show(true);
    await screen.findByTestId('weather-irradiance', {}, T);
    fireEvent.click(screen.getByTestId('weather-stations'));
    const table = await screen.findByTestId('weather-stations-table', {}, T);
    await waitFor(() => expect(within(table).getByText('Roof station')).toBeTruthy());
    expect(table.textContent).toContain('WS0000000001');
    expect(table.textContent).toContain('sunfleet-weather');
    expect(callsTo(calls, '/api/v1/getWeatherStationInfo')[0]!.url.searchParams.get('plantId')).toBe('7');

    // The SN rules of the contract are checked before asking.
    fireEvent.change(screen.getByTestId('weather-station-sn'), { target: { value: 'WS 02' } });
    fireEvent.click(screen.getByTestId('weather-station-attach'));
    expect(await screen.findByText('An SN has 1 to 32 letters, digits, "-" or "_"', {}, T)).toBeTruthy();
    expect(callsTo(calls, '/api/v1/saveAuthInfo', 'POST')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('weather-station-sn'), { target: { value: 'WS0000000002' } });
    fireEvent.click(screen.getByTestId('weather-station-attach'));
    await waitFor(() => expect(callsTo(calls, '/api/v1/saveAuthInfo', 'POST')).toHaveLength(1));
    const body = new URLSearchParams(callsTo(calls, '/api/v1/saveAuthInfo', 'POST')[0]!.body ?? '');
    expect(Object.fromEntries(body)).toEqual({ plantId: '7', sn: 'WS0000000002' });
    expect(await screen.findByText('Weather station WS0000000002 attached', {}, T)).toBeTruthy();
    await waitFor(() => expect(callsTo(calls, REALTIME)).toHaveLength(2));
    await waitFor(() => expect(callsTo(calls, '/api/v1/getWeatherStationInfo')).toHaveLength(2));
  }, 20_000);

  it('an SN that is not a weather device of the plant (404) shows under the field', async () => {
    const calls = routes(() => fail(ErrorCode.notFound, 'not found'));
    show(true);
    await screen.findByTestId('weather-irradiance', {}, T);
    fireEvent.click(screen.getByTestId('weather-stations'));
    fireEvent.change(await screen.findByTestId('weather-station-sn', {}, T), { target: { value: 'INV0001' } });
    fireEvent.click(screen.getByTestId('weather-station-attach'));
    expect(
      await screen.findByText("No weather station with SN INV0001 is connected to this plant's gateways", {}, T),
    ).toBeTruthy();
    expect(callsTo(calls, '/api/v1/saveAuthInfo', 'POST')).toHaveLength(1);
  }, 20_000);
});
