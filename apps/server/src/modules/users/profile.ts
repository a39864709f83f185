/** Map a user row to the profile contract (never the raw row: no hash, no secrets). */
import { type account, defaultThemeColor, type Language, type TemperatureUnit } from '@sunfleet/contracts';
import type { Static } from 'typebox';
import type { Db } from '../../db/index.ts';
import type { User } from '../../db/schema.ts';
import { companyOfProfile, roleName } from './users.repo.ts';

const kindNames = {
  sysadmin: { en: 'System administrator', es: 'Administrador del sistema' },
  company_admin: { en: 'Company administrator', es: 'Administrador de la empresa' },
  company_user: { en: 'Company user', es: 'Usuario de la empresa' },
  end_user: { en: 'Owner', es: 'Propietario' },
} as const;

export async function profileOf(db: Db, user: User, lan: Language): Promise<Static<typeof account.UserProfile>> {
  const company = user.company_id ? await companyOfProfile(db, user.company_id) : undefined;
  const role = user.kind === 'company_user' && user.role_id ? await roleName(db, user.role_id) : undefined;
  return {
    id: user.id,
    account: user.account,
    kind: user.kind,
    role: role?.name ?? kindNames[user.kind][lan],
    nickname: user.nickname,
    name: user.name,
    gender: user.gender,
    phone: user.phone,
    avatar: user.avatar,
    company: company
      ? {
          id: company.id,
          name: company.name,
          logoUrl: company.logo_url,
          iconUrl: company.icon_url,
          themeColor: company.theme_color ?? defaultThemeColor,
        }
      : null,
    temperatureUnit: temperatureUnitOf(user),
    language: user.language,
    readOnly: user.read_only === 1,
    notifyEnabled: user.notify_enabled === 1,
  };
}

/** The unit a user reads temperatures in: °F when their profile says F, else °C. */
export const temperatureUnitOf = (user: Pick<User, 'temperature_unit'>): TemperatureUnit =>
  user.temperature_unit === 'F' ? 'F' : 'C';
