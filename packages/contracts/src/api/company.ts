/**
 * Company administration: the company's details, logo and theme colour, its users, and the
 * administrative audit log. Company names are unique (203); an account already in a company
 * cannot be added to another (106); nobody changes their own role (803).
 */
import Type from 'typebox';
import { endpoint, Paged, PageQuery } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { limits } from '../limits.ts';
import { IdParams, Instant, Nothing } from '../schemas.ts';
import { EMAIL_PATTERN, PASSWORD_PATTERN, PHONE_PATTERN, safeTextPattern } from '../validation.ts';

/** `#rrggbb`, the only form a theme colour is stored and sent in. */
export const THEME_COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';
/** A stored logo: `/uploads/logos/` and a name made of the image's digest. */
export const LOGO_URL_PATTERN = '^/uploads/logos/[a-f0-9]{32}\\.(png|jpg|gif)$';

export const companyLimits = {
  name: 64,
  contactName: 32,
  address: 128,
  userName: 64,
  nickname: 32,
  /** A logo or icon file: at most 1 MB (JPG, JPEG, GIF or PNG by content). */
  logoBytes: 1024 * 1024,
} as const;

const SafeText = (min: number, max: number) => Type.String({ minLength: min, maxLength: max, pattern: safeTextPattern });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Email = Type.String({ pattern: EMAIL_PATTERN, maxLength: 254, description: 'e-mail address' });
const Phone = Type.String({ pattern: PHONE_PATTERN });
const ThemeColor = Type.String({ pattern: THEME_COLOR_PATTERN, description: '#rrggbb' });
const LogoUrl = Type.String({ pattern: LOGO_URL_PATTERN });

export const CompanyInfo = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  contactName: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  address: Type.Union([Type.String(), Type.Null()]),
  logoUrl: Type.Union([Type.String(), Type.Null()]),
  iconUrl: Type.Union([Type.String(), Type.Null()]),
  themeColor: Type.String({ description: '#rrggbb; #00cc00 when the company has not chosen one' }),
  users: Type.Integer({ description: 'accounts of the company' }),
  roles: Type.Integer({ description: 'roles of the company' }),
  createdAt: Instant,
});

const CompanyFields = {
  name: SafeText(1, companyLimits.name),
  contactName: Type.Optional(Nullable(SafeText(0, companyLimits.contactName))),
  email: Type.Optional(Nullable(Email)),
  phone: Type.Optional(Nullable(Phone)),
  address: Type.Optional(Nullable(SafeText(0, companyLimits.address))),
};

export const companyInfo = endpoint({
  method: 'GET',
  path: '/api/v1/company/info',
  access: 'company.info',
  summary: "The caller's company (an operator names one with id)",
  query: Type.Object({ id: Type.Optional(Type.Integer({ minimum: 1 })) }),
  data: CompanyInfo,
});

export const checkCompany = endpoint({
  method: 'GET',
  path: '/api/v1/company/check',
  access: ['company.info.edit', 'customer.edit'],
  summary: 'Whether a company name is free: 203 if another company has it (id: the company being edited)',
  query: Type.Object({ name: SafeText(1, companyLimits.name), id: Type.Optional(Type.Integer({ minimum: 1 })) }),
  data: Nothing,
  tolerate: [ErrorCode.companyNameTaken],
});

export const addCompany = endpoint({
  method: 'POST',
  path: '/api/v1/company/add',
  access: 'customer.edit',
  writes: true,
  encoding: 'json',
  summary: 'Add a company (operators); 203 when the name is taken',
  body: Type.Object({ ...CompanyFields, themeColor: Type.Optional(ThemeColor) }, { additionalProperties: false }),
  data: CompanyInfo,
  tolerate: [ErrorCode.companyNameTaken],
});

export const editCompany = endpoint({
  method: 'POST',
  path: '/api/v1/company/:id/edit',
  access: 'company.info.edit',
  writes: true,
  encoding: 'json',
  summary: "Edit a company's name and contact details; 203 when the name is taken",
  params: IdParams,
  body: Type.Object(CompanyFields, { additionalProperties: false }),
  data: CompanyInfo,
  tolerate: [ErrorCode.companyNameTaken],
});

export const setThemeColor = endpoint({
  method: 'POST',
  path: '/api/v1/company/:id/themeColor',
  access: 'company.info.edit',
  writes: true,
  encoding: 'json',
  summary: "Set the company's theme colour (#rrggbb; null: back to #00cc00)",
  params: IdParams,
  body: Type.Object({ themeColor: Nullable(ThemeColor) }, { additionalProperties: false }),
  data: CompanyInfo,
});

export const uploadLogo = endpoint({
  method: 'POST',
  path: '/api/v1/company/uploadLogo',
  access: 'company.info.edit',
  writes: true,
  encoding: 'multipart',
  summary: `Store a logo image (field "file": JPG, JPEG, GIF or PNG by content, at most ${companyLimits.logoBytes / 1024 / 1024} MB) under a name made of its digest; company/{id}/logo puts it on a company`,
  data: Type.Object({ url: Type.String() }),
});

export const setLogo = endpoint({
  method: 'POST',
  path: '/api/v1/company/:id/logo',
  access: 'company.info.edit',
  writes: true,
  encoding: 'json',
  summary: "Set the company's logo (wide, 220x58) and icon (square, 58x58) to uploaded images; null removes one",
  params: IdParams,
  body: Type.Object({ logoUrl: Nullable(LogoUrl), iconUrl: Nullable(LogoUrl) }, { additionalProperties: false }),
  data: CompanyInfo,
});

// ---- users ----

export const CompanyUser = Type.Object({
  id: Type.Integer(),
  account: Type.String(),
  kind: Type.Union([Type.Literal('company_admin'), Type.Literal('company_user')]),
  name: Type.Union([Type.String(), Type.Null()]),
  nickname: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  gender: Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Null()]),
  avatar: Type.Union([Type.String(), Type.Null()]),
  roleId: Type.Union([Type.Integer(), Type.Null()]),
  roleName: Type.Union([Type.String(), Type.Null()]),
  enabled: Type.Boolean(),
  createdAt: Instant,
});

const Gender = Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Null()]);
const UserFields = {
  name: Type.Optional(Nullable(SafeText(0, companyLimits.userName))),
  nickname: Type.Optional(Nullable(SafeText(0, companyLimits.nickname))),
  phone: Type.Optional(Nullable(Phone)),
  gender: Type.Optional(Gender),
  roleId: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
};

export const listUsers = endpoint({
  method: 'GET',
  path: '/api/v1/company/user/list',
  access: 'company.user',
  summary: "The accounts of the caller's company, newest first (keyword: account, name or nickname contains)",
  query: Type.Object({
    ...PageQuery,
    keyword: Type.Optional(Type.String({ maxLength: 64 })),
    roleId: Type.Optional(Type.Integer({ minimum: 1 })),
  }),
  data: Paged(CompanyUser),
});

export const getCompanyUser = endpoint({
  method: 'GET',
  path: '/api/v1/company/user/:id/',
  access: 'company.user',
  summary: "One account of the caller's company",
  params: IdParams,
  data: CompanyUser,
});

export const checkUser = endpoint({
  method: 'GET',
  path: '/api/v1/company/user/check',
  access: 'company.user.add',
  summary: 'Whether an account may be added: 106 if it belongs to a company, 104 if it exists otherwise',
  query: Type.Object({ account: Email }),
  data: Nothing,
  tolerate: [ErrorCode.accountExists, ErrorCode.accountInCompany],
});

/** The multipart fields of company/user/add (the avatar is the optional file field "avatar"). */
export const AddUserFields = Type.Object(
  {
    account: Email,
    password: Type.String({ pattern: PASSWORD_PATTERN, minLength: limits.password.min, maxLength: limits.password.max }),
    ...UserFields,
  },
  { additionalProperties: false },
);

export const addUser = endpoint({
  method: 'POST',
  path: '/api/v1/company/user/add',
  access: 'company.user.add',
  writes: true,
  encoding: 'multipart',
  summary:
    'Add an account to the caller’s company (multipart: account, password, name, nickname, phone, gender, roleId; optional file "avatar", JPG or PNG, at most 6 MB); 104 account exists, 106 account in a company',
  body: AddUserFields,
  data: CompanyUser,
  tolerate: [ErrorCode.accountExists, ErrorCode.accountInCompany],
});

export const editUser = endpoint({
  method: 'POST',
  path: '/api/v1/company/user/edit/:id',
  access: 'company.user.edit',
  writes: true,
  encoding: 'json',
  summary: 'Edit an account of the company (its role too, except one’s own: 803)',
  params: IdParams,
  body: Type.Object({ ...UserFields, enabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  data: CompanyUser,
  tolerate: [ErrorCode.ownRoleLocked],
});

export const deleteUser = endpoint({
  method: 'POST',
  path: '/api/v1/company/user/delete/:id',
  access: 'company.user.delete',
  writes: true,
  summary:
    'Take an account out of the company: it keeps its sign-in as a plain account without company rights, and its sessions end',
  params: IdParams,
  data: Nothing,
});

// ---- the administrative audit log ----

/** What the administrative audit log records changes of. */
export const auditEntities = [
  'company',
  'user',
  'role',
  'customer',
  'customer_type',
  'agent',
  'gateway_stock',
  'firmware',
  'product',
  'inverter_type',
  'plant_transfer',
] as const;
export type AuditEntityName = (typeof auditEntities)[number];
const AuditEntity = Type.Union([
  Type.Literal('company'),
  Type.Literal('user'),
  Type.Literal('role'),
  Type.Literal('customer'),
  Type.Literal('customer_type'),
  Type.Literal('agent'),
  Type.Literal('gateway_stock'),
  Type.Literal('firmware'),
  Type.Literal('product'),
  Type.Literal('inverter_type'),
  Type.Literal('plant_transfer'),
]);

export const AuditEntry = Type.Object({
  id: Type.Integer(),
  at: Instant,
  actorId: Type.Integer(),
  actorAccount: Type.Union([Type.String(), Type.Null()]),
  companyId: Type.Union([Type.Integer(), Type.Null()]),
  companyName: Type.Union([Type.String(), Type.Null()]),
  entity: AuditEntity,
  entityId: Type.String(),
  action: Type.String(),
  before: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  after: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});

export const adminAudit = endpoint({
  method: 'GET',
  path: '/api/v1/admin/audit',
  access: ['system.management', 'company.management'],
  summary:
    'The administrative audit log, newest first: operators see every company’s records, a company administrator only their company’s',
  query: Type.Object({
    ...PageQuery,
    entity: Type.Optional(AuditEntity),
    actor: Type.Optional(Type.String({ maxLength: 254, description: 'the account that made the change contains this' })),
    companyId: Type.Optional(Type.Integer({ minimum: 1 })),
    from: Type.Optional(Instant),
    to: Type.Optional(Instant),
  }),
  data: Paged(AuditEntry),
});
