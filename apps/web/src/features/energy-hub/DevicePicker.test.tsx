import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderPage, serve } from '../../test/pages.tsx';
import { DevicePicker, useDeviceChoices } from './DevicePicker.tsx';

const device = (sn: string, over: Record<string, unknown> = {}) => ({
  sn,
  alias: null,
  manufacturer: 'Sunfleet',
  model: 'Sunfleet three-phase hybrid inverter',
  installDate: '2026-01-02',
  chargeCapacity: 5,
  dischargeCapacity: 5,
  storageCapacity: 10.24,
  enrolled: false,
  cannotTakePart: null,
  ...over,
});

function Picker() {
  const picker = useDeviceChoices();
  return (
    <>
      <DevicePicker picker={picker} testId="plant" />
      <div data-testid="chosen">
        {picker
          .chosen()
          .map((d) => d.sn)
          .join(',')}
      </div>
    </>
  );
}

afterEach(cleanup);

describe('DevicePicker', () => {
  it('shows a device that cannot take part with the reason, not chosen and not choosable', async () => {
    const calls = serve([
      ['GET', '/api/v1/user', () => ({ id: 7 })],
      ['GET', /^\/api\/v1\/oadr\/userStationList/, () => [{ id: 1, name: 'Casa', timezone: 'Europe/Madrid', storageDevices: 1 }]],
      [
        'GET',
        /^\/api\/v1\/oadr\/stationMasterDevice/,
        () => [device('HYB0001'), device('BAT0001', { model: 'Sunfleet battery', cannotTakePart: 'noPowerControl' })],
      ],
    ]);
    renderPage(<Picker />, { path: '/energyHub/enrollmentPlan', pattern: '/energyHub/enrollmentPlan' });
    await waitFor(() => expect(calls.map((c) => c.url.pathname)).toContain('/api/v1/oadr/stationMasterDevice/1'), {
      timeout: 8000,
    });
    expect((await screen.findByTestId('cannot-BAT0001', {}, { timeout: 8000 })).textContent).toBe(
      'BAT0001 (cannot take part: its registers cannot force its battery to charge or discharge; enrol the inverter it is connected to)',
    );
    const box = screen.getByRole('checkbox', { name: 'BAT0001' }) as HTMLInputElement;
    expect([box.checked, box.disabled]).toEqual([false, true]);
    await waitFor(() => expect(screen.getByTestId('chosen').textContent).toBe('HYB0001'));
  }, 20_000);
});
