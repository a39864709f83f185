/** Row types of the store. Times are epoch milliseconds; booleans are 0/1 (portable). */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type AccountKind = 'sysadmin' | 'company_admin' | 'company_user' | 'end_user';

export interface UsersTable {
  id: Generated<number>;
  account: string;
  password_hash: string;
  kind: AccountKind;
  company_id: number | null;
  role_id: number | null;
  nickname: string | null;
  name: string | null;
  gender: 'male' | 'female' | null;
  phone: string | null;
  avatar: string | null;
  temperature_unit: Generated<string>;
  language: Generated<string>;
  read_only: Generated<number>;
  notify_enabled: Generated<number>;
  notify_email: string | null;
  personalized: Generated<string>;
  agent_company_id: number | null;
  enabled: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  logo_url: string | null;
  icon_url: string | null;
  theme_color: string | null;
  customer_type_id: number | null;
  /** JSON array of permission names the company holds (its roles grant a subset). */
  permissions: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface CustomerTypesTable {
  id: Generated<number>;
  name: string;
  remark: string | null;
  permissions: Generated<string>;
  created_at: number;
}

export interface CompanyRolesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  permissions: Generated<string>;
  created_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  last_seen_at: number;
  user_agent: string | null;
  ip: string | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: number;
  used_at: number | null;
}

export interface VerificationCodesTable {
  id: Generated<number>;
  account: string;
  purpose: string;
  code_hash: string;
  expires_at: number;
  attempts: Generated<number>;
  used_at: number | null;
  created_at: number;
}

export interface PlantsTable {
  id: Generated<number>;
  name: string;
  type: Generated<number>;
  capacity: Generated<number>;
  owner_user_id: number | null;
  company_id: number | null;
  timezone: Generated<string>;
  currency: string | null;
  latitude: number | null;
  longitude: number | null;
  address: string | null;
  status: Generated<string>;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export type ShareRole = 'manager' | 'visitor';
export interface PlantSharesTable {
  plant_id: number;
  user_id: number;
  role: ShareRole;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  companies: CompaniesTable;
  customer_types: CustomerTypesTable;
  company_roles: CompanyRolesTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  verification_codes: VerificationCodesTable;
  plants: PlantsTable;
  plant_shares: PlantSharesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Company = Selectable<CompaniesTable>;
export type Plant = Selectable<PlantsTable>;
