/**
 * System version rules:
 * - a number equal to another version's by `compareVersions` (1.7 and 1.07 are equal) is 207;
 * - numbers rise with publication time: a new version must be higher than the latest (else 4);
 *   an edited one must stay higher than every version published before it and lower than every
 *   one published after it (else 4), so the timeline is in number and time order alike;
 * - the publisher and time are the first publication's; an edit changes the number and notes.
 * Writes take the table lock on PostgreSQL so two publications cannot both pass the order check
 * (SQLite has one writer at a time).
 */
import { compareVersions, ErrorCode } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import type { Db, Dialect } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import {
  deleteVersionRow,
  insertVersion,
  latest,
  lockVersions,
  updateVersion,
  versionById,
  versionNumbers,
  versionPage,
} from './versions.repo.ts';

interface Input {
  id?: number;
  number: string;
  contentZh: string;
  contentEn: string;
}

type Known = { id: number; number: string; publishedAt: number };

function checkNumber(all: readonly Known[], number: string, id?: number) {
  const clash = all.find((v) => v.id !== id && compareVersions(v.number, number) === 0);
  if (clash) fail(ErrorCode.already, `number: equal to version ${clash.number}`);
  const at = id === undefined ? -1 : all.findIndex((v) => v.id === id);
  const before = at === -1 ? all : all.slice(0, at);
  const after = at === -1 ? [] : all.slice(at + 1);
  // The others rise with time already: only the nearest neighbours need comparing.
  const below = before.at(-1);
  if (below && compareVersions(number, below.number) <= 0)
    fail(ErrorCode.validation, `number: must be higher than ${below.number}`);
  const above = after[0];
  if (above && compareVersions(number, above.number) >= 0)
    fail(ErrorCode.validation, `number: must be lower than ${above.number}`);
}

export const listVersions = (db: Db, page = 1, size = 10) => versionPage(db, page, size);

export async function getVersion(db: Db, id: number) {
  const v = await versionById(db, id);
  if (!v) return fail(ErrorCode.notFound);
  return v;
}

export async function currentVersion(db: Db) {
  const v = await latest(db);
  return v ? { number: v.number, publishedAt: v.publishedAt } : null;
}

export const latestVersion = async (db: Db) => (await latest(db)) ?? null;

export async function checkVersionNumber(db: Db, number: string, id?: number) {
  const clash = (await versionNumbers(db)).find((v) => v.id !== id && compareVersions(v.number, number) === 0);
  if (clash) fail(ErrorCode.already, `number: equal to version ${clash.number}`);
}

export async function saveVersion(db: Db, dialect: Dialect, caller: Caller, input: Input) {
  const number = input.number.trim();
  const contentZh = input.contentZh.trim();
  const contentEn = input.contentEn.trim();
  if (!contentZh) fail(ErrorCode.validation, 'contentZh: required');
  if (!contentEn) fail(ErrorCode.validation, 'contentEn: required');
  const at = Date.now();
  const id = await db.transaction().execute(async (trx) => {
    await lockVersions(trx, dialect);
    const all = await versionNumbers(trx);
    if (input.id !== undefined && !all.some((v) => v.id === input.id)) fail(ErrorCode.notFound);
    checkNumber(all, number, input.id);
    if (input.id !== undefined) {
      await updateVersion(trx, input.id, { number, content_zh: contentZh, content_en: contentEn, updated_at: at });
      return input.id;
    }
    // Never earlier than the latest: numbers and times rise together even if the clock stepped back.
    const publishedAt = Math.max(at, (all.at(-1)?.publishedAt ?? 0) + 1);
    return insertVersion(trx, {
      number,
      content_zh: contentZh,
      content_en: contentEn,
      published_by: caller.user.id,
      published_at: publishedAt,
      updated_at: at,
    });
  });
  return getVersion(db, id);
}

export async function deleteVersion(db: Db, id: number) {
  if (!(await deleteVersionRow(db, id))) fail(ErrorCode.notFound);
  return null;
}
