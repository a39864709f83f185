import { describe, expect, it } from 'vitest';
import { brandForHost, brands, defaultBrand, hostMatches } from './brands.ts';

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
});
