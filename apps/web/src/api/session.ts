/**
 * Client-held session state: `user` = the token pair, `userInfo` = the user id, and
 * `theme` = the last company colour (so a reload paints the right colour before the profile
 * arrives). Kept in localStorage so a reload or a second tab stays signed in.
 */
import type { account, DataOf } from '@sunfleet/contracts';

export type TokenData = DataOf<typeof account.token>;
export interface StoredUser {
  access_token: string;
  refresh_token: string;
}
export interface UserInfo {
  id: number;
}

const USER = 'user';
const USER_INFO = 'userInfo';
const THEME = 'theme';

function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function getStoredUser(): StoredUser | null {
  const user = read<StoredUser>(USER);
  return user?.access_token && user.refresh_token ? user : null;
}

export function getUserInfo(): UserInfo | null {
  return read<UserInfo>(USER_INFO);
}

/** Store the tokens of a sign-in or a refresh. */
export function storeTokens(tokens: TokenData): void {
  const user: StoredUser = { access_token: tokens.access_token, refresh_token: tokens.refresh_token };
  localStorage.setItem(USER, JSON.stringify(user));
  localStorage.setItem(USER_INFO, JSON.stringify({ id: tokens.userId } satisfies UserInfo));
}

export function getStoredThemeColor(): string | null {
  return localStorage.getItem(THEME);
}
export function storeThemeColor(color: string): void {
  localStorage.setItem(THEME, color);
}

/** Forget everything about the signed-in user (sign-out, code 102, failed refresh). */
export function clearSession(): void {
  for (const key of [USER, USER_INFO, THEME]) localStorage.removeItem(key);
}
