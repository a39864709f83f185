/** Image sizes from PNG, JPEG and GIF headers, and the pixel limits per use. */
import { describe, expect, it } from 'vitest';
import { JPEG_MIN, PNG_1PX } from '../../test/account.ts';
import { pngOf } from '../../test/images.ts';
import { imageFits, imageSize, MAX_IMAGE_PIXELS, maxImageSide } from './image-size.ts';

/** A JPEG with an EXIF-like APP1 segment before its frame header (SOF2, progressive). */
function jpegOf(width: number, height: number): Buffer {
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0x01, 0x02]), Buffer.alloc(256, 0x41)]);
  const sof = Buffer.from([0xff, 0xc2, 0x00, 0x0b, 0x08, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.from([0xff, 0xff]), app1, sof, Buffer.from([0xff, 0xd9])]);
}

/** A GIF whose screen is `screen` and whose one frame is `frame` (left, top, width, height). */
function gifOf(screen: [number, number], frame: [number, number, number, number]): Buffer {
  const u16 = (n: number) => Buffer.from([n & 255, n >> 8]);
  return Buffer.concat([
    Buffer.from('GIF89a', 'ascii'),
    u16(screen[0]),
    u16(screen[1]),
    Buffer.from([0x80, 0, 0]), // global colour table of 2 colours
    Buffer.alloc(6),
    Buffer.from([0x21, 0xf9, 4, 0, 0, 0, 0, 0]), // graphic control extension
    Buffer.from([0x2c]),
    ...frame.map(u16),
    Buffer.from([0, 2, 2, 0x4c, 0x01, 0]), // no local table, LZW size 2, one data block
    Buffer.from([0x3b]),
  ]);
}

describe('imageSize', () => {
  it('reads PNG, JPEG and GIF headers', () => {
    expect(imageSize(PNG_1PX)).toEqual({ width: 1, height: 1 });
    expect(imageSize(pngOf(14_000, 14_000))).toEqual({ width: 14_000, height: 14_000 });
    expect(imageSize(JPEG_MIN)).toEqual({ width: 1, height: 1 });
    expect(imageSize(jpegOf(6000, 4000))).toEqual({ width: 6000, height: 4000 });
    expect(imageSize(gifOf([10, 20], [0, 0, 10, 20]))).toEqual({ width: 10, height: 20 });
  });

  it('takes a GIF frame larger than its screen at its own size', () => {
    expect(imageSize(gifOf([1, 1], [0, 0, 30_000, 30_000]))).toEqual({ width: 30_000, height: 30_000 });
  });

  it('answers null for what is no image, or one cut before its size', () => {
    expect(imageSize(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageSize(pngOf(5, 5).subarray(0, 20))).toBeNull();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]))).toBeNull();
    expect(imageSize(Buffer.alloc(0))).toBeNull();
  });
});

describe('imageFits', () => {
  it('refuses above 25 megapixels, above the side of its use, and an empty canvas', () => {
    expect(MAX_IMAGE_PIXELS).toBe(25_000_000);
    expect(imageFits({ width: 6000, height: 4000 }, 'plant')).toBe(true);
    expect(imageFits({ width: 8192, height: 3500 }, 'plant')).toBe(false); // 28.7 MP
    expect(imageFits({ width: 14_000, height: 14_000 }, 'logo')).toBe(false);
    expect(imageFits({ width: maxImageSide.logo, height: 100 }, 'logo')).toBe(true);
    expect(imageFits({ width: maxImageSide.logo + 1, height: 100 }, 'logo')).toBe(false);
    expect(imageFits({ width: 2000, height: 2000 }, 'icon')).toBe(false);
    expect(imageFits({ width: 1024, height: 1024 }, 'icon')).toBe(true);
    expect(imageFits({ width: 0, height: 10 }, 'avatar')).toBe(false);
  });
});
