/** Account and login. */
import Type from 'typebox';
import { endpoint } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { limits } from '../limits.ts';
import { IdParams, LanQuery, Nothing } from '../schemas.ts';
import { CODE_PATTERN, EMAIL_PATTERN, PASSWORD_PATTERN, PHONE_PATTERN, safeTextPattern } from '../validation.ts';

const Account = Type.String({ pattern: EMAIL_PATTERN, maxLength: 254, description: 'e-mail address' });
const Password = Type.String({ pattern: PASSWORD_PATTERN, minLength: limits.password.min, maxLength: limits.password.max });
const Code = Type.String({ pattern: CODE_PATTERN });
const SafeText = (max: number) => Type.String({ maxLength: max, pattern: safeTextPattern });
export const CodePurpose = Type.Union([Type.Literal('signup'), Type.Literal('reset')]);

export const TokenData = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'seconds' }),
  userId: Type.Integer(),
});

export const token = endpoint({
  method: 'POST',
  path: '/oauth/token',
  access: 'public',
  encoding: 'json',
  summary: 'Sign in (password grant) or refresh the session (refresh_token grant)',
  body: Type.Union([
    Type.Object({
      grant_type: Type.Literal('password'),
      username: Type.String({ maxLength: 254 }),
      password: Type.String({ maxLength: 64 }),
    }),
    Type.Object({ grant_type: Type.Literal('refresh_token'), refresh_token: Type.String({ maxLength: 200 }) }),
  ]),
  data: TokenData,
  tolerate: [ErrorCode.wrongCredentials, ErrorCode.accountDisabled],
  errors: { 401: 'The refresh token is not valid (expired, revoked or unknown): code 401' },
});

export const revoke = endpoint({
  method: 'POST',
  path: '/oauth/revoke',
  access: 'user',
  encoding: 'json',
  summary: 'Sign out: revoke the current session',
  data: Nothing,
});

export const getCode = endpoint({
  method: 'GET',
  path: '/anonymous/getCode',
  access: 'public',
  summary: 'E-mail a 6-digit verification code (answers the same whether or not the account exists)',
  query: Type.Object({ account: Account, type: CodePurpose, lan: Type.Optional(Type.String({ maxLength: 8 })) }),
  data: Nothing,
});

export const checkCode = endpoint({
  method: 'GET',
  path: '/anonymous/checkCode',
  access: 'public',
  summary: 'Check a verification code without using it up',
  query: Type.Object({ account: Account, type: CodePurpose, code: Code }),
  data: Nothing,
  tolerate: [ErrorCode.codeWrong, ErrorCode.codeExpired],
});

export const checkAccount = endpoint({
  method: 'GET',
  path: '/anonymous/checkAccount',
  access: 'public',
  summary: 'Whether an account exists: 103 registered (for sign-up), 105 is an account (for reset)',
  query: Type.Object({ account: Account, type: Type.Optional(CodePurpose) }),
  data: Type.Object({ exists: Type.Boolean() }),
  tolerate: [ErrorCode.isAccount, ErrorCode.accountRegistered],
});

export const signup = endpoint({
  method: 'POST',
  path: '/anonymous/signup',
  access: 'public',
  encoding: 'json',
  summary: 'Register an end-user account with the e-mailed code',
  body: Type.Object({
    account: Account,
    password: Password,
    code: Code,
    nickname: Type.Optional(SafeText(32)),
    lan: Type.Optional(Type.String({ maxLength: 8 })),
  }),
  data: Type.Object({ userId: Type.Integer() }),
  tolerate: [ErrorCode.codeWrong, ErrorCode.codeExpired],
});

export const resetPwd = endpoint({
  method: 'POST',
  path: '/anonymous/resetPwd',
  access: 'public',
  encoding: 'json',
  summary: 'Set a new password with the e-mailed code',
  body: Type.Object({ account: Account, password: Password, code: Code }),
  data: Nothing,
  tolerate: [ErrorCode.codeWrong, ErrorCode.codeExpired],
});

export const ip = endpoint({
  method: 'GET',
  path: '/anonymous/ip',
  access: 'public',
  summary: "The caller's IP address",
  data: Type.Object({ ip: Type.String() }),
});

export const Gender = Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Null()]);
export const TemperatureUnit = Type.Union([Type.Literal('C'), Type.Literal('F')]);
export const AccountKind = Type.Union([
  Type.Literal('sysadmin'),
  Type.Literal('company_admin'),
  Type.Literal('company_user'),
  Type.Literal('end_user'),
]);

export const CompanyBrand = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  logoUrl: Type.Union([Type.String(), Type.Null()]),
  iconUrl: Type.Union([Type.String(), Type.Null()]),
  themeColor: Type.String(),
});

export const UserProfile = Type.Object({
  id: Type.Integer(),
  account: Type.String(),
  kind: AccountKind,
  role: Type.String({ description: 'display name of the role in the requested language' }),
  nickname: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  gender: Gender,
  phone: Type.Union([Type.String(), Type.Null()]),
  avatar: Type.Union([Type.String(), Type.Null()]),
  company: Type.Union([CompanyBrand, Type.Null()]),
  temperatureUnit: TemperatureUnit,
  language: Type.String(),
  readOnly: Type.Boolean(),
  notifyEnabled: Type.Boolean(),
});

export const getUser = endpoint({
  method: 'GET',
  path: '/api/v1/user',
  access: 'user',
  summary: 'The signed-in user’s profile',
  query: LanQuery,
  data: UserProfile,
});

export const updateUser = endpoint({
  method: 'POST',
  path: '/api/v1/user/:id',
  access: 'user',
  writes: true,
  summary: 'Update one’s own profile (no role, company or other privileged fields)',
  params: IdParams,
  body: Type.Object(
    {
      nickname: Type.Optional(Type.Union([SafeText(32), Type.Null()])),
      name: Type.Optional(Type.Union([SafeText(64), Type.Null()])),
      gender: Type.Optional(Gender),
      phone: Type.Optional(Type.Union([Type.String({ pattern: PHONE_PATTERN }), Type.Null()])),
      temperatureUnit: Type.Optional(TemperatureUnit),
      language: Type.Optional(Type.Union([Type.Literal('en'), Type.Literal('es')])),
    },
    { additionalProperties: false },
  ),
  data: UserProfile,
});

export const changePassword = endpoint({
  method: 'POST',
  path: '/api/v1/user/:id/pwd',
  access: 'user',
  writes: true,
  summary: 'Change one’s own password; signs out every session',
  params: IdParams,
  body: Type.Object({ oldPassword: Type.String({ maxLength: 64 }), password: Password }),
  data: Nothing,
  tolerate: [ErrorCode.oldPasswordWrong],
});

export const Personalized = Type.Record(Type.String({ maxLength: 64 }), Type.Unknown());
export const getPersonalized = endpoint({
  method: 'GET',
  path: '/api/v1/user/personalized',
  access: 'user',
  summary: 'Personal UI settings (menu settings, table columns)',
  data: Personalized,
});
export const savePersonalized = endpoint({
  method: 'POST',
  path: '/api/v1/user/personalized',
  access: 'user',
  encoding: 'json',
  summary: 'Save one personal UI setting (at most 16 KB each, 64 keys)',
  body: Type.Object({ key: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._-]+$' }), value: Type.Unknown() }),
  data: Personalized,
});

export const notifyCode = endpoint({
  method: 'GET',
  path: '/api/v1/user/notify/code',
  access: 'user',
  summary: 'E-mail a code to confirm the address for abnormal-event notifications',
  query: Type.Object({ email: Type.Optional(Account) }),
  data: Nothing,
  tolerate: [ErrorCode.codeWrong, ErrorCode.codeExpired],
});
export const NotifySettings = Type.Object({ enabled: Type.Boolean(), email: Type.Union([Type.String(), Type.Null()]) });
export const setNotify = endpoint({
  method: 'POST',
  path: '/api/v1/user/notify',
  access: 'user',
  writes: true,
  encoding: 'json',
  summary: 'Switch abnormal-event notifications; switching on needs the e-mailed code',
  body: Type.Object({ enable: Type.Boolean(), email: Type.Optional(Account), code: Type.Optional(Code) }),
  data: NotifySettings,
  tolerate: [ErrorCode.codeWrong, ErrorCode.codeExpired],
});
export const getNotify = endpoint({
  method: 'GET',
  path: '/api/v1/user/notify/enable',
  access: 'user',
  summary: 'Whether abnormal-event notifications are on',
  data: NotifySettings,
});

export const uploadAvatar = endpoint({
  method: 'POST',
  path: '/api/v1/user/:id/avatar',
  access: 'user',
  writes: true,
  encoding: 'multipart',
  summary: 'Upload one’s avatar: JPG, JPEG or PNG by content, at most 6 MB (field "file")',
  params: IdParams,
  data: Type.Object({ avatar: Type.String() }),
});
