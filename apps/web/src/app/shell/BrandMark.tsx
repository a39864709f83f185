/** The logo at the top of the menu: the company's logo (or icon when collapsed), else the brand's. */
import styles from './shell.module.css';
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
    <div className={styles.brand}>
      {/* A box of known size (a logo of any shape fits it, object-fit): nothing moves when it loads. */}
      <img
        src={src}
        alt={company?.name ?? title}
        width={collapsed ? 32 : 152}
        height={collapsed ? 32 : 40}
        data-testid="brand-logo"
        className={collapsed ? `${styles.brandLogo} ${styles.brandIcon}` : styles.brandLogo}
      />
    </div>
  );
}
