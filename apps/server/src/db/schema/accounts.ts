// Row types of the store for accounts: users, companies, customer types, company roles, sessions,
// refresh tokens, verification codes, throttles and pending uploads. Times are epoch milliseconds;
// booleans are 0/1 (portable).
import type { Generated } from 'kysely';

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
  /** 018: the customer company that serves this one as its agent (one level: an agent has no agent). */
  agent_company_id: number | null;
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
  /** 018: the parent type of a subtype (one level: a subtype has no subtypes). */
  parent_id: number | null;
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

export interface ThrottlesTable {
  key: string;
  window_start: number;
  count: number;
  last_at: number;
}

export interface PendingUploadsTable {
  id: Generated<number>;
  url: string;
  user_id: number;
  created_at: number;
}
