/**
 * The interface language: English and Spanish are offered, English is the
 * default; the choice is stored in localStorage (`language`) and applied by a reload.
 */
export const offeredLanguages = [
  { code: 'en', label: 'English' },
  { code: 'es', label: 'Español' },
] as const;
export type UiLanguage = (typeof offeredLanguages)[number]['code'];

const KEY = 'language';

/** The stored choice, or English. Unknown stored values are kept for `serverLanguage`. */
export function storedLanguage(): string {
  try {
    return localStorage.getItem(KEY) || 'en';
  } catch {
    return 'en';
  }
}

/**
 * Store the choice and reload. Signed in, `save` first stores it in the profile too (mails and
 * downloads follow the profile's language); the switch happens even when that fails.
 */
export async function chooseLanguage(code: UiLanguage, save?: (code: UiLanguage) => Promise<unknown>): Promise<void> {
  await save?.(code).catch(() => undefined);
  localStorage.setItem(KEY, code);
  window.location.reload();
}

/** The `lan` sent to the server: Chinese locales (zh-CN, cn, …) map to `zh`. */
export function serverLanguage(ui: string): string {
  const lower = ui.toLowerCase();
  if (lower.startsWith('zh') || lower === 'cn') return 'zh';
  return lower.split('-')[0] || 'en';
}
