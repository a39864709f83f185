/**
 * Host-based brands. The page's host picks the brand; the first brand whose `hosts`
 * match wins, and `defaultBrand` (dark) applies otherwise.
 *
 * Config format, one entry per brand:
 *   id          stable name, used in code (e.g. the partner login route asks for 'partner')
 *   hosts       host names that select the brand: exact ('portal.example.com') or a leading
 *               wildcard for sub-domains ('*.example.com'); ports are ignored
 *   title       brand title: the tab title is "<page title> - <title>"
 *   favicon     path of the favicon under apps/web/public (served from the site root)
 *   logo        path of the wordmark shown on the login page and the menu (under public/)
 *   dark        true → Ant Design darkAlgorithm, false → the default light algorithm
 *   primaryColor  the colour before a company colour applies (default #00cc00)
 *   companyFavicon  true → a signed-in company account's icon replaces the favicon (a partner
 *               brand that must keep its own mark in the tab says false)
 * A company's own theme colour and logo (from the profile) override primaryColor and logo.
 */
import { defaultThemeColor } from '@sunfleet/contracts';

export interface Brand {
  id: string;
  hosts: readonly string[];
  title: string;
  favicon: string;
  logo: string;
  dark: boolean;
  primaryColor: string;
  companyFavicon: boolean;
}

export const brands: readonly Brand[] = [
  {
    id: 'sunfleet',
    hosts: ['portal.sunfleet.example', '*.sunfleet.example'],
    title: 'Sunfleet Solar Portal',
    favicon: '/brands/sunfleet.svg',
    logo: '/brands/sunfleet-logo.svg',
    dark: false,
    primaryColor: defaultThemeColor,
    companyFavicon: true,
  },
  {
    id: 'partner',
    hosts: ['portal.helios-partner.example', '*.helios-partner.example'],
    title: 'Helios Partner Portal',
    favicon: '/brands/partner.svg',
    logo: '/brands/partner-logo.svg',
    dark: false,
    primaryColor: '#1677ff',
    companyFavicon: false,
  },
];

export const defaultBrand: Brand = {
  id: 'default',
  hosts: [],
  title: 'Sunfleet',
  favicon: '/brands/default.svg',
  logo: '/brands/default-logo.svg',
  dark: true,
  primaryColor: defaultThemeColor,
  companyFavicon: true,
};

export function hostMatches(pattern: string, host: string): boolean {
  const h = host.toLowerCase().split(':')[0] ?? '';
  const p = pattern.toLowerCase();
  return p.startsWith('*.') ? h.endsWith(p.slice(1)) : h === p;
}

export function brandForHost(host: string, list: readonly Brand[] = brands): Brand {
  return list.find((b) => b.hosts.some((p) => hostMatches(p, host))) ?? defaultBrand;
}

export function brandById(id: string): Brand {
  return brands.find((b) => b.id === id) ?? defaultBrand;
}

/** The brand of this page, decided once at start. */
export const currentBrand: Brand = brandForHost(typeof location === 'undefined' ? '' : location.host);

/** Point the favicon link at the brand's icon. */
export function applyFavicon(href: string): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  link.href = href;
}

/** The favicon while a company account is signed in: the company's icon where the brand allows it, else the brand's. */
export function faviconFor(brand: Brand, company: { iconUrl: string | null } | null | undefined): string {
  return brand.companyFavicon && company?.iconUrl ? company.iconUrl : brand.favicon;
}
