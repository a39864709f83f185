/** Session handling in the browser: a 401 mid-session refreshes once and replays the waiting requests. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal();
});
afterAll(() => portal?.close());

describe('session', () => {
  it('a 401 mid-session refreshes once, replays every waiting request, and stays signed in', async () => {
    const { page, context } = await portal.page();
    await portal.login(page, demo.owner, DEMO_PASSWORD);
    await expect.poll(() => page.getByTestId('side-menu').innerText()).toContain('Plants');

    // The access token goes stale (as after 15 minutes); the refresh token is still good.
    await page.evaluate(() => {
      const user = JSON.parse(localStorage.getItem('user')!);
      localStorage.setItem('user', JSON.stringify({ ...user, access_token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.stale' }));
    });
    const refreshes: string[] = [];
    const unauthorized: string[] = [];
    const replayed: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/oauth/token')) refreshes.push(r.postData() ?? '');
    });
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (!path.startsWith('/api/')) return;
      if (r.status() === 401) unauthorized.push(path);
      else if (r.status() === 200) replayed.push(path);
    });

    // A reload fires the profile and the permission requests at once: both get 401.
    await page.reload();
    await expect.poll(() => page.getByTestId('side-menu').innerText()).toContain('Plants');
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toContain('refresh_token');
    expect(unauthorized.length).toBeGreaterThanOrEqual(2);
    for (const path of new Set(unauthorized)) expect(replayed).toContain(path);
    const after = await page.evaluate(() => JSON.parse(localStorage.getItem('user')!));
    expect(after.access_token).not.toContain('stale');
    await context.close();
  });

  it('when the refresh fails too, the user lands on the login page with nothing stored', async () => {
    const { page, context } = await portal.page();
    await portal.login(page, demo.owner, DEMO_PASSWORD);
    await expect.poll(() => page.getByTestId('side-menu').innerText()).toContain('Plants');
    await page.evaluate(() =>
      localStorage.setItem('user', JSON.stringify({ access_token: 'bad.bad.bad', refresh_token: 'revoked' })),
    );
    await page.reload();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await context.close();
  });

  it('a signed-in user visiting /login is sent to /', async () => {
    const { page, context } = await portal.page();
    await portal.login(page, demo.owner, DEMO_PASSWORD);
    await page.goto('/login');
    await page.waitForURL((u) => u.pathname === '/plants');
    await context.close();
  });
});
