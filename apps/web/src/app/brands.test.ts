import { describe, expect, it } from 'vitest';
import { brandById, brandForHost, brands, defaultBrand, faviconFor, hostMatches } from './brands.ts';

describe('host-based brands', () => {
  it('matches exact hosts and sub-domain wildcards, ignoring ports and case', () => {
    expect(hostMatches('portal.example.com', 'Portal.Example.com:8443')).toBe(true);
    expect(hostMatches('*.example.com', 'eu.example.com')).toBe(true);
    expect(hostMatches('*.example.com', 'example.com.evil.net')).toBe(false);
    expect(hostMatches('portal.example.com', 'other.example.com')).toBe(false);
  });

  it('picks the first brand whose hosts match, the dark default otherwise', () => {
    expect(brandForHost(brands[0]!.hosts[0]!)).toBe(brands[0]);
    expect(brandForHost(brands[1]!.hosts[0]!)).toBe(brands[1]);
    expect(brandForHost('localhost:8080')).toBe(defaultBrand);
    expect(defaultBrand.dark).toBe(true);
  });

  it("shows a company's icon as the favicon where the brand allows it", () => {
    const icon = '/uploads/logos/0123456789abcdef0123456789abcdef.png';
    expect(faviconFor(defaultBrand, { iconUrl: icon })).toBe(icon);
    expect(faviconFor(brandById('sunfleet'), { iconUrl: icon })).toBe(icon);
    // The partner brand keeps its own mark in the tab.
    expect(faviconFor(brandById('partner'), { iconUrl: icon })).toBe(brandById('partner').favicon);
    expect(faviconFor(defaultBrand, { iconUrl: null })).toBe(defaultBrand.favicon);
    expect(faviconFor(defaultBrand, null)).toBe(defaultBrand.favicon);
  });
});
