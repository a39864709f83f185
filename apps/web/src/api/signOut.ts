/** Sign-out: revoke the session on the server, forget it here, reload to /login. */
import { account } from '@sunfleet/contracts';
import { call } from './client.ts';
import { clearSession } from './session.ts';

export async function signOut(goToLogin: () => void = () => window.location.replace('/login')): Promise<void> {
  try {
    await call(account.revoke, { quiet: true });
  } catch {
    // Already signed out or unreachable: the local session ends anyway.
  }
  clearSession();
  goToLogin();
}
