/** The files crawlers read: a real robots.txt in the build and a description in the page head. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const web = path.resolve(import.meta.dirname, '..');

describe('site files', () => {
  it('robots.txt lets the public pages be indexed and keeps crawlers out of the API', () => {
    const robots = fs.readFileSync(path.join(web, 'public/robots.txt'), 'utf8');
    const lines = robots.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines[0]).toBe('User-agent: *');
    for (const prefix of ['/api/', '/oauth/', '/anonymous/', '/uploads/']) expect(lines).toContain(`Disallow: ${prefix}`);
    expect(lines).toContain('Allow: /');
    expect(lines.every((l) => /^(User-agent|Disallow|Allow): \S+$/.test(l))).toBe(true);
  });

  it('index.html describes the portal (in English: the page head is one for both languages)', () => {
    const html = fs.readFileSync(path.join(web, 'index.html'), 'utf8');
    const description = html.match(/<meta\s+name="description"\s+content="([^"]+)"/)?.[1];
    expect(description).toMatch(/solar/);
    expect(description!.length).toBeGreaterThan(50);
    expect(description!.length).toBeLessThanOrEqual(160);
  });
});
