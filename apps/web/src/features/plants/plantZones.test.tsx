/** Times about one plant are read in the plant's zone and say it, whatever the browser's zone. */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { browserZone, formatZoned } from '../../lib/zonedTime.ts';
import { renderPage, serve } from '../../test/pages.tsx';
import { GatewaySection } from './Gateway.tsx';
import { ShareDialog } from './ShareDialog.tsx';

// A zone other than the one the tests run in (a quarter-hour offset: no coincidence with it).
const PLANT_ZONE = browserZone() === 'Asia/Kathmandu' ? 'America/St_Johns' : 'Asia/Kathmandu';
const AT = '2026-03-01T23:30:00.000Z';
const inPlantZone = formatZoned(AT, PLANT_ZONE, 'en', { seconds: true });
const inBrowserZone = formatZoned(AT, browserZone(), 'en', { seconds: true });

describe('plant times in the plant zone', () => {
  it('differ from the browser zone here', () => {
    expect(inPlantZone).not.toBe(inBrowserZone);
    expect(inPlantZone).toContain(`(${PLANT_ZONE})`);
  });

  it('the share dialog says since when in the plant zone', async () => {
    serve([
      ['GET', '/api/v1/plant/7/getShareUsers', () => [{ userId: 3, account: 'ana@example.com', role: 'visitor', sharedAt: AT }]],
    ]);
    renderPage(<ShareDialog plant={{ id: 7, name: 'Casa Marta', timezone: PLANT_ZONE }} onClose={() => {}} />, {
      path: '/plants',
      pattern: '/plants',
    });
    const since = await screen.findByText(new RegExp(inPlantZone.replace(/[()+]/g, '\\$&')), {}, { timeout: 5000 });
    expect(since.textContent).not.toContain(inBrowserZone);
  });

  it('the plant gateways say when each was last online in the plant zone', () => {
    renderPage(
      <GatewaySection
        plantId={7}
        plantName="Plant 7"
        timezone={PLANT_ZONE}
        gateways={[{ sn: 'SFGW000007', alias: null, online: false, lastOnlineAt: AT }]}
        canChange={false}
        canOperate={false}
        onChanged={() => {}}
      />,
      { path: '/plants/edit/7', pattern: '/plants/edit/:id' },
    );
    const row = screen.getByTestId('gateway-SFGW000007').textContent ?? '';
    expect(row).toContain(inPlantZone);
    expect(row).not.toContain(inBrowserZone);
  });
});
