import { describe, expect, it } from 'vitest';
import {
  hasForbiddenChars,
  hasHexCharacter,
  isAscii,
  isBinaryString,
  isDecimalInRange,
  isDeviceAlias,
  isDrAccountNumber,
  isEmail,
  isFirmwareFileName,
  isIntegerInRange,
  isLettersAndSymbolsOrDigits,
  isNonNegativeInteger,
  isPassword,
  isPlantName,
  isPositiveInteger,
  sniffImage,
  stripForbiddenChars,
} from './validation.ts';

describe('shared input rules', () => {
  it('forbidden characters, ASCII and full-width', () => {
    for (const c of '`~#$%^&*()+=<>{}|/"\'[]＃（＜｛') expect(hasForbiddenChars(`a${c}b`)).toBe(true);
    expect(hasForbiddenChars('Casa Marta-1_2.3, Sevilla')).toBe(false);
    expect(stripForbiddenChars('a#b(c)d')).toBe('abcd');
  });
  it('passwords: 6 to 16, no spaces', () => {
    expect(isPassword('abc123')).toBe(true);
    expect(isPassword('abc12')).toBe(false);
    expect(isPassword('a'.repeat(17))).toBe(false);
    expect(isPassword('abc 123')).toBe(false);
  });
  it('e-mail', () => {
    expect(isEmail('ana.garcia+x@example.co.uk')).toBe(true);
    expect(isEmail('ana@localhost')).toBe(false);
    expect(isEmail('not an email')).toBe(false);
  });
  it('numbers', () => {
    expect(isNonNegativeInteger('0')).toBe(true);
    expect(isNonNegativeInteger('012')).toBe(false);
    expect(isPositiveInteger('0')).toBe(false);
    expect(isPositiveInteger('10')).toBe(true);
    expect(isIntegerInRange('5', 1, 5)).toBe(true);
    expect(isIntegerInRange('6', 1, 5)).toBe(false);
    expect(isDecimalInRange('9999', 0, 9999)).toBe(true);
    expect(isDecimalInRange('12.345', 0, 9999)).toBe(false);
    expect(isDecimalInRange('12.34', 0, 9999)).toBe(true);
    expect(isDecimalInRange('10000', 0, 9999)).toBe(false);
  });
  it('other rules', () => {
    expect(isBinaryString('01 10')).toBe(true);
    expect(isBinaryString('012')).toBe(false);
    expect(hasHexCharacter('zzz')).toBe(false);
    expect(hasHexCharacter('zzf')).toBe(true);
    expect(isLettersAndSymbolsOrDigits('1234')).toBe(true);
    expect(isLettersAndSymbolsOrDigits('ab-c')).toBe(true);
    expect(isLettersAndSymbolsOrDigits('ab1')).toBe(false);
    expect(isAscii('abc')).toBe(true);
    expect(isAscii('añb')).toBe(false);
    expect(isPlantName('Casa')).toBe(false);
    expect(isPlantName('Casa Marta')).toBe(true);
    expect(isPlantName('x'.repeat(33))).toBe(false);
    expect(isDeviceAlias('ñ'.repeat(16))).toBe(true);
    expect(isDeviceAlias('ñ'.repeat(17))).toBe(false);
    expect(isDrAccountNumber('acct_01-x')).toBe(true);
    expect(isDrAccountNumber('Acct')).toBe(false);
    expect(isFirmwareFileName('fw-1.2_3.bin')).toBe(true);
    expect(isFirmwareFileName('fw 1.bin')).toBe(false);
  });
  it('images by content', () => {
    expect(sniffImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImage(new TextEncoder().encode('<svg onload=alert(1)>'))).toBeNull();
  });
});
