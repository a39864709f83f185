import { ErrorCode } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { renderWithApp } from '../../test/render.tsx';
import AppDownloadPage from './AppDownloadPage.tsx';

const IOS = 'https://apps.apple.com/app/sunfleet/id123456789';
const ANDROID = 'https://play.google.com/store/apps/details?id=com.sunfleet.app';

function serve(data: { ios: string | null; android: string | null }) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      expect(String(input)).toBe('/anonymous/appStores');
      return new Response(JSON.stringify({ code: ErrorCode.ok, msg: 'ok', data }), { status: 200 });
    }),
  );
}

const renderPage = () =>
  renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <AppDownloadPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );

/** The SVG document an <img> shows from its data: URL. */
const svgOf = (img: HTMLElement) =>
  decodeURIComponent(img.getAttribute('src')!.replace(/^data:image\/svg\+xml;charset=utf-8,/, ''));

afterEach(() => vi.unstubAllGlobals());

describe('app download page', () => {
  it('shows each configured store as a link and a QR code drawn as SVG', async () => {
    serve({ ios: IOS, android: ANDROID });
    renderPage();
    const ios = await screen.findByTestId('store-ios-link', {}, { timeout: 5000 });
    expect(ios.getAttribute('href')).toBe(IOS);
    expect(screen.getByTestId('store-android-link').getAttribute('href')).toBe(ANDROID);
    const qr = await screen.findByTestId('store-android-qr', {}, { timeout: 5000 });
    expect(svgOf(qr)).toMatch(/^<svg[^>]*viewBox="0 0 \d+ \d+"/);
    expect(svgOf(qr)).toContain('<path');
    expect(qr.getAttribute('alt')).toBe('QR code of the Android store page');
    // Two different addresses, two different codes.
    expect(svgOf(await screen.findByTestId('store-ios-qr'))).not.toBe(svgOf(qr));
  }, 20_000);

  it('leaves out a store that is not configured', async () => {
    serve({ ios: null, android: ANDROID });
    renderPage();
    await screen.findByTestId('store-android-link', {}, { timeout: 5000 });
    expect(screen.queryByTestId('store-ios')).toBeNull();
    expect(screen.queryByTestId('stores-none')).toBeNull();
  }, 20_000);

  it('says the app is not offered when no store is configured', async () => {
    serve({ ios: null, android: null });
    renderPage();
    await waitFor(() => expect(screen.getByTestId('stores-none').textContent).toContain('not offered'), { timeout: 5000 });
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull();
  }, 20_000);
});
