/**
 * An uploaded image's size in pixels, read from its header (PNG, JPEG, GIF: what the uploads
 * accept), and the limits per use. A small file can declare a huge canvas (a 571 KB PNG of
 * 14,000 × 14,000 pixels): every browser that shows it decodes the whole canvas. An image is
 * refused (code 11) above 25 megapixels, or wider or higher than its use needs.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { fail } from './errors.ts';

export interface ImageSize {
  width: number;
  height: number;
}

/** At most this many pixels, whatever the use. */
export const MAX_IMAGE_PIXELS = 25_000_000;

/** The longest side an image may have, by use (a logo shows at 220 × 58, an icon at 58 × 58). */
export const maxImageSide = { logo: 4096, icon: 1024, avatar: 4096, plant: 8192 } as const;
export type ImageUse = keyof typeof maxImageSide;

/** The use of the images kept in an upload folder. */
export const imageUseOfFolder = (folder: string): ImageUse =>
  folder === 'plants' ? 'plant' : folder === 'logos' ? 'logo' : 'avatar';

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** PNG: the first chunk is IHDR, width and height big-endian 32-bit. */
function pngSize(b: Buffer): ImageSize | null {
  if (b.length < 24 || !ascii(b, 12, 'IHDR')) return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** GIF: the logical screen, and every frame (a frame may declare more than the screen). */
function gifSize(b: Buffer): ImageSize | null {
  if (b.length < 10) return null;
  let width = b.readUInt16LE(6);
  let height = b.readUInt16LE(8);
  // Frames: image descriptors (0x2C) after the global colour table, extensions (0x21) skipped.
  let at = 13 + (b[10]! & 0x80 ? 3 * 2 ** ((b[10]! & 7) + 1) : 0);
  while (at < b.length) {
    const block = b[at];
    if (block === 0x3b) break;
    if (block === 0x21) {
      at += 2;
      while (at < b.length && b[at] !== 0) at += b[at]! + 1;
      at += 1;
    } else if (block === 0x2c && at + 10 <= b.length) {
      width = Math.max(width, b.readUInt16LE(at + 1) + b.readUInt16LE(at + 5));
      height = Math.max(height, b.readUInt16LE(at + 3) + b.readUInt16LE(at + 7));
      const flags = b[at + 9]!;
      at += 10 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0) + 1; // local colour table, LZW code size
      while (at < b.length && b[at] !== 0) at += b[at]! + 1;
      at += 1;
    } else break;
  }
  return { width, height };
}

/** JPEG: the first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC) holds height and width. */
function jpegSize(b: Buffer): ImageSize | null {
  let at = 2;
  while (at + 9 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0–7.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame
    at += 2 + b.readUInt16BE(at + 2);
  }
  return null;
}

/** The image's size from its header; null when the bytes are not a PNG, JPEG or GIF with a readable size. */
export function imageSize(bytes: Buffer): ImageSize | null {
  if (ascii(bytes, 1, 'PNG') && bytes[0] === 0x89) return pngSize(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegSize(bytes);
  if (ascii(bytes, 0, 'GIF8')) return gifSize(bytes);
  return null;
}

/** Whether an image of `size` may be used as `use`. */
export const imageFits = (size: ImageSize, use: ImageUse) =>
  size.width > 0 &&
  size.height > 0 &&
  size.width * size.height <= MAX_IMAGE_PIXELS &&
  Math.max(size.width, size.height) <= maxImageSide[use];

/**
 * Refuse (code 11) an image larger than `use` allows, or (code 4) one whose size cannot be read;
 * call it on bytes already known to be a PNG, JPEG or GIF.
 */
export function refuseOversizedImage(bytes: Buffer, use: ImageUse): void {
  const size = imageSize(bytes);
  if (!size) fail(ErrorCode.validation, 'file: the image size cannot be read');
  else if (!imageFits(size, use)) fail(ErrorCode.imageTooLarge);
}
