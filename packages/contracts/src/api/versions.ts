/**
 * System versions: the portal's published versions, each with its number, release notes in
 * Chinese and English, who published it and when. Numbers are unique and, in the order of
 * `compareVersions`, rise with publication time: a new version is higher than the latest, an
 * edited one stays between its neighbours. Every signed-in account reads them; the system
 * operators publish, edit and delete.
 */
import Type from 'typebox';
import { endpoint, Paged, PageQuery } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { Id, IdParams, Instant, Nothing, Nullable } from '../schemas.ts';

export const VERSION_NUMBER_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$';
export const VERSION_CONTENT_MAX = 5000;

export const SystemVersion = Type.Object({
  id: Type.Integer(),
  number: Type.String(),
  contentZh: Type.String(),
  contentEn: Type.String(),
  publisher: Type.String({ description: 'who published it (nickname, else account name)' }),
  publishedAt: Instant,
  updatedAt: Instant,
});

const Content = Type.String({ minLength: 1, maxLength: VERSION_CONTENT_MAX });
const VersionNumber = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: VERSION_NUMBER_PATTERN,
  description: 'letters, digits, dot, hyphen, underscore; at most 32',
});

export const VersionInput = Type.Object(
  { id: Type.Optional(Id), number: VersionNumber, contentZh: Content, contentEn: Content },
  { additionalProperties: false },
);

export const listVersions = endpoint({
  method: 'GET',
  path: '/api/v1/versions',
  access: 'user',
  summary: 'The published versions, highest first, paged',
  query: Type.Object(PageQuery),
  data: Paged(SystemVersion),
});

export const saveVersion = endpoint({
  method: 'POST',
  path: '/api/v1/version',
  access: 'system.version.edit',
  writes: true,
  encoding: 'json',
  summary:
    'Publish a version, or edit one (id): 207 when the number equals another’s; 4 when a new number is not higher than the latest, or an edited one leaves its place between its neighbours',
  body: VersionInput,
  data: SystemVersion,
  tolerate: [ErrorCode.already, ErrorCode.validation],
});

export const deleteVersion = endpoint({
  method: 'GET',
  path: '/api/v1/version/:id/delete',
  access: 'system.version.edit',
  writes: true,
  summary: 'Delete a published version',
  params: IdParams,
  data: Nothing,
  tolerate: [ErrorCode.notFound],
});

export const checkVersion = endpoint({
  method: 'GET',
  path: '/api/v1/version/check',
  access: 'system.version.edit',
  summary: 'Whether a version number is free: 207 when another version has an equal number (id: the one being edited)',
  query: Type.Object({ number: VersionNumber, id: Type.Optional(Id) }),
  data: Nothing,
  tolerate: [ErrorCode.already],
});

export const currentVersion = endpoint({
  method: 'GET',
  path: '/api/v1/version',
  access: 'user',
  summary: 'The current version: the highest number and when it was published (null before the first)',
  data: Nullable(Type.Object({ number: Type.String(), publishedAt: Instant })),
});

export const latestVersion = endpoint({
  method: 'GET',
  path: '/api/v1/version/latest',
  access: 'user',
  summary: 'The latest version with its release notes (null before the first)',
  data: Nullable(SystemVersion),
});

export const versionTimeline = endpoint({
  method: 'GET',
  path: '/api/v1/version/timeline',
  access: 'user',
  summary: 'The versions as a timeline, highest first, paged',
  query: Type.Object(PageQuery),
  data: Paged(SystemVersion),
});

export const getVersion = endpoint({
  method: 'GET',
  path: '/api/v1/version/:id',
  access: 'system.version',
  summary: 'One version (the edit form)',
  params: IdParams,
  data: SystemVersion,
  tolerate: [ErrorCode.notFound],
});
