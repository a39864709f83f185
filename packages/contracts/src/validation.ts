/**
 * Shared input rules. The web forms and the server schemas both use these, so a
 * value the form accepts is a value the server accepts.
 */
import { limits } from './limits.ts';

/** Characters that may not be typed into non-password text inputs, ASCII and full-width. */
export const FORBIDDEN_CHARS = '`~#$%^&*()+=<>{}|/"\'[]' + '｀～＃＄％＾＆＊（）＋＝＜＞｛｝｜／＂＇［］';
const forbiddenClass = FORBIDDEN_CHARS.replace(/[\]\\^-]/g, '\\$&');
export const forbiddenCharsRe = new RegExp(`[${forbiddenClass}]`);
/** JSON-schema `pattern` for free text without the forbidden characters. */
export const safeTextPattern = `^[^${forbiddenClass}]*$`;

export const hasForbiddenChars = (s: string) => forbiddenCharsRe.test(s);
export const stripForbiddenChars = (s: string) => s.replace(new RegExp(forbiddenCharsRe.source, 'g'), '');

export const EMAIL_PATTERN = "^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}$";
export const isEmail = (s: string) => s.length <= 254 && new RegExp(EMAIL_PATTERN).test(s);

/** 6 to 16 characters, case-sensitive, no whitespace. */
export const PASSWORD_PATTERN = '^\\S{6,16}$';
export const isPassword = (s: string) => new RegExp(PASSWORD_PATTERN).test(s);

export const CODE_PATTERN = '^[0-9]{6}$';
/** Phone numbers: digits, spaces, dashes and a leading plus, at most 20. */
export const PHONE_PATTERN = '^[+0-9 -]{0,20}$';

/** Positive integer or zero, no leading zeros. */
export const isNonNegativeInteger = (s: string) => /^(0|[1-9]\d*)$/.test(s);
/** Positive integer starting with a non-zero digit. */
export const isPositiveInteger = (s: string) => /^[1-9]\d*$/.test(s);
/** Integer within [min, max]. */
export const isIntegerInRange = (s: string, min: number, max: number) =>
  /^-?(0|[1-9]\d*)$/.test(s) && Number(s) >= min && Number(s) <= max;
/** Number with up to two decimals within [min, max]. */
export const isDecimalInRange = (s: string, min: number, max: number, decimals = limits.decimals) =>
  new RegExp(`^-?(0|[1-9]\\d*)(\\.\\d{1,${decimals}})?$`).test(s) && Number(s) >= min && Number(s) <= max;
/** Only the characters 0 and 1 (whitespace removed). */
export const isBinaryString = (s: string) => /^[01]+$/.test(s.replace(/\s+/g, ''));
/** At least one hexadecimal character. */
export const hasHexCharacter = (s: string) => /[0-9a-fA-F]/.test(s);
/** Letters and symbols only, or digits only. */
export const isLettersAndSymbolsOrDigits = (s: string) => /^\d+$/.test(s) || /^[^\d\s]+$/.test(s);
export const isAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);

/** Plant name 5 to 32 characters (counted as characters, not bytes). */
export const isPlantName = (s: string) => {
  const n = [...s.trim()].length;
  return n >= limits.plantName.min && n <= limits.plantName.max;
};
/** Device alias at most 32 bytes (UTF-8). */
export const isDeviceAlias = (s: string) => new TextEncoder().encode(s).length <= limits.deviceAliasBytes;
/** Demand-response account number: lowercase letters, digits, underscore or dash, at most 16. */
export const isDrAccountNumber = (s: string) => /^[a-z0-9_-]{1,16}$/.test(s);
export const isDigitsOnly = (s: string) => /^\d+$/.test(s);
/** Firmware file name: letters, numbers, hyphen, underscore or dot, at most 40. */
export const isFirmwareFileName = (s: string) => /^[A-Za-z0-9._-]{1,40}$/.test(s);
export const isFirmwareVersion = (s: string) => /^[A-Za-z0-9_-]+$/.test(s);

export type ImageKind = 'png' | 'jpeg' | 'gif';
/** Identify an image by its first bytes, never by its name or declared type. */
export function sniffImage(head: Uint8Array): ImageKind | null {
  if (head.length >= 8 && head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 6 && head[0] === 0x47 && head[1] === 0x49 && head[2] === 0x46 && head[3] === 0x38) return 'gif';
  return null;
}
