/** The logo at the top of the menu: the company's logo (or icon when collapsed), else the brand's. */
import type { UserProfile } from './shellContext.ts';

export function BrandMark({
  profile,
  collapsed,
  brandLogo,
  brandIcon,
  title,
}: {
  profile: UserProfile;
  collapsed: boolean;
  brandLogo: string;
  brandIcon: string;
  title: string;
}) {
  const company = profile.company;
  const src = collapsed ? (company?.iconUrl ?? company?.logoUrl ?? brandIcon) : (company?.logoUrl ?? brandLogo);
  return (
    <div style={{ height: 64, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: '0 16px' }}>
      <img
        src={src}
        alt={company?.name ?? title}
        data-testid="brand-logo"
        style={{ maxHeight: collapsed ? 32 : 40, maxWidth: '100%', objectFit: 'contain' }}
      />
    </div>
  );
}
