/**
 * A new owner's first visit, in the real portal: register with the code received by SMTP,
 * sign in, see the menu the permissions allow, switch to Spanish, open account settings,
 * change the password, sign out, and sign in with the new password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Portal, startPortal } from './portal.ts';

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal();
});
afterAll(() => portal?.close());

describe('a new owner', () => {
  it('registers, signs in, switches to Spanish, changes the password and signs out', async () => {
    const { page, context } = await portal.page();
    const email = `new.owner.${Date.now()}@example.com`;

    await page.goto('/plants');
    await page.waitForURL('**/login'); // no stored user: any page sends to /login
    await page.getByTestId('register-link').click();
    await page.waitForURL('**/reg');
    await page.getByTestId('register-email').fill(email);
    await page.getByTestId('send-code').click();
    const code = await portal.smtp.codeFor(email);
    await page.getByTestId('code-input').fill(code);
    await page.getByTestId('register-password').fill('FirstPass1');
    await page.getByTestId('register-confirm').fill('FirstPass1');
    await page.getByTestId('register-agree').check();
    await page.getByTestId('register-submit').click();
    await page.waitForURL((u) => !u.pathname.startsWith('/reg'));
    if (new URL(page.url()).pathname.startsWith('/login')) await portal.login(page, email, 'FirstPass1');

    // An owner's menu: plants, devices, operation data, energy programmes; no administration.
    const menu = page.getByTestId('side-menu');
    await expect.poll(() => menu.innerText()).toContain('Plants');
    const items = await menu.innerText();
    for (const entry of ['Devices', 'Operation data', 'Energy programmes']) expect(items).toContain(entry);
    for (const entry of ['Firmware', 'Customers', 'Company', 'System']) expect(items).not.toContain(entry);
    expect(new URL(page.url()).pathname).toBe('/plants');

    // Spanish: the choice is stored and the page reloads in Spanish.
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-es').click();
    await expect.poll(() => page.getByTestId('side-menu').innerText(), { timeout: 10_000 }).toContain('Plantas');
    expect(await page.getByTestId('side-menu').innerText()).toContain('Dispositivos');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');

    // Account settings, then a password change.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('account-settings').click();
    await page.waitForURL('**/edit');
    await page.getByTestId('password-old').fill('WrongPass9');
    await page.getByTestId('password-new').fill('SecondPass2');
    await page.getByTestId('password-confirm').fill('SecondPass2');
    await page.getByTestId('password-save').click();
    // 108 is handled on the form, in Spanish.
    await expect.poll(() => page.getByTestId('password-form').innerText()).toMatch(/contraseña anterior es incorrecta/i);
    await page.getByTestId('password-old').fill('FirstPass1');
    await page.getByTestId('password-save').click();
    await expect
      .poll(
        async () =>
          (
            await page
              .locator('.ant-message')
              .innerText()
              .catch(() => '')
          ).length,
      )
      .toBeGreaterThan(0);

    // Sign out: back to the login page, and the old session is dead on the server.
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    const reuse = await fetch(`${portal.url}/api/v1/user`, { headers: { authorization: `Bearer ${stored.access_token}` } });
    expect(reuse.status).toBe(401);

    // The old password no longer works; the new one does.
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill('FirstPass1');
    await page.getByTestId('login-submit').click();
    await expect
      .poll(() =>
        page
          .getByTestId('login-error')
          .innerText()
          .catch(() => ''),
      )
      .not.toBe('');
    await portal.login(page, email, 'SecondPass2');
    expect(new URL(page.url()).pathname).toBe('/plants');
    await context.close();
  });
});
