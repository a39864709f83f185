/** Envelopes tests expect, written once. */
import { ErrorCode, errorText, type Language } from '@sunfleet/contracts';
import { expect } from 'vitest';

/**
 * The fields a code-4 detail names, as a client reads them: the path after the request part it
 * starts with (`body.account must …` → `account`, `querystring.plantIds.0 …` → `plantIds.0`), or
 * the name before its colon (`name: taken` → `name`).
 */
export function namedFields(detail: string): string[] {
  const path = /^(?:body|querystring|query|params)\.([\w.]+?)(?=:|\s|$)/.exec(detail)?.[1] ?? /^([A-Za-z]\w*):/.exec(detail)?.[1];
  return path && !['body', 'query', 'querystring', 'params'].includes(path) ? [path] : [];
}

/** The answer to bad input with this detail: code 4, the detail after "Invalid input: ", the fields it names. */
export function invalidInput(detail: string, lan: Language = 'en') {
  const fields = namedFields(detail);
  return {
    code: ErrorCode.validation,
    msg: `${errorText(ErrorCode.validation, lan)}: ${detail}`,
    data: fields.length ? { fields } : null,
  };
}

/** What a test matches (toMatchObject) on bad input that names these fields. */
export const badInput = (...fields: string[]) => ({ code: ErrorCode.validation, data: { fields } });

/** Bad input that names some field (a loop over inputs wrong in different fields). */
export const someBadInput = { code: ErrorCode.validation, data: { fields: expect.arrayContaining([expect.any(String)]) } };
