/**
 * The one HTTP client. Every call goes through an endpoint
 * contract from `@sunfleet/contracts`, so paths, encodings, whitelisted codes and response
 * types come from the same place the server registers its routes from.
 *
 * - Encoding: form-urlencoded with repeated array keys by default, JSON for `encoding: 'json'`,
 *   multipart for `encoding: 'multipart'`. Query strings use the form encoding too.
 * - Envelope `{ code, msg, data }`: code 0 → `data`. Another code → `ApiError`; a toast unless
 *   the endpoint (or the call) tolerates the code, in which case the screen handles it. Bad input
 *   (code 4) carries the fields the server named (`data.fields`) as `ApiError.fields`.
 * - Code 102 outside the login call: the stored user is cleared and the page goes to /login.
 * - HTTP 401: no stored user → /login; otherwise ONE refresh (`grant_type=refresh_token`) is
 *   shared by every request that hit 401 meanwhile; they replay with the new access token.
 *   A failed refresh rejects them all, clears storage and goes to /login.
 * - HTTP 503 with Retry-After (the server briefly unavailable: overloaded, or its store down for
 *   a moment): a GET waits that long (at most 10 s) and is sent once more; a call that writes, a
 *   second 503 or a longer wait shows the envelope's message like any other code.
 * - Network error or another HTTP ≥ 500: one "server did not respond" confirm dialog at a time.
 */
import {
  account,
  type BodyOf,
  type DataOf,
  type Endpoint,
  type Envelope,
  ErrorCode,
  errorCatalogue,
  errorText,
  fillPath,
  limits,
  type ParamsOf,
  type QueryOf,
  toLanguage,
  type ValidationData,
  warningCodes,
} from '@sunfleet/contracts';
import { clearSession, getStoredUser, storeTokens, type TokenData } from './session.ts';

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** The screen asked to handle this code itself (no toast was shown). */
    readonly tolerated = false,
    /** The server's own message (e.g. a device's reason for refusing), when it sent one. */
    readonly serverMessage: string | null = null,
    /** Bad input (code 4): the fields the server named, paths inside the body, query or params (`name`, `profiles.0.name`). */
    readonly fields: readonly string[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What the client needs from the page around it; the app wires antd and the router in. */
export interface ClientEnvironment {
  toast(text: string, level: 'error' | 'warning'): void;
  /** Show the "server did not respond" dialog; resolves when it closes. */
  confirmServerDown(text: string): Promise<void>;
  /** Hard navigation to the login page (a reload, so no state survives). */
  goToLogin(): void;
  /** The interface language (for `Accept-Language` and the error texts). */
  language(): string;
}

const defaultEnvironment: ClientEnvironment = {
  toast: (text) => console.warn(text),
  confirmServerDown: async () => {},
  goToLogin: () => window.location.replace('/login'),
  language: () => 'en',
};
let env: ClientEnvironment = { ...defaultEnvironment };

export function configureClient(partial: Partial<ClientEnvironment>): void {
  env = { ...env, ...partial };
}

type Scalar = string | number | boolean | null | undefined | Date;
type MultipartValue = Blob | Exclude<Scalar, Date>;
export type MultipartBody = FormData | Record<string, MultipartValue>;
// An input part is required when its schema has a required field, optional otherwise.
type Part<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : Record<string, never> extends T
    ? { [P in K]?: T }
    : { [P in K]: T };
type BodyPart<E extends Endpoint> = E['encoding'] extends 'multipart' ? { body: MultipartBody } : Part<'body', BodyOf<E>>;
export interface CallOptions {
  /** Codes this call handles itself, on top of the endpoint's `tolerate` list. */
  tolerate?: readonly number[];
  /** No toast and no dialog for this call (e.g. sign-out). */
  quiet?: boolean;
  signal?: AbortSignal;
}
export type CallInput<E extends Endpoint> = Part<'params', ParamsOf<E>> & Part<'query', QueryOf<E>> & BodyPart<E> & CallOptions;
type CallArgs<E extends Endpoint> = Record<string, never> extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

/** Form encoding: arrays become repeated keys, empty values are left out. */
export function encodeForm(values: Record<string, unknown> | undefined): URLSearchParams {
  const out = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (value instanceof Date) out.append(key, value.toISOString());
    else if (typeof value === 'object') out.append(key, JSON.stringify(value));
    else out.append(key, String(value));
  };
  for (const [key, value] of Object.entries(values ?? {})) {
    if (Array.isArray(value)) for (const item of value) add(key, item);
    else add(key, value);
  }
  return out;
}

function encodeMultipart(body: MultipartBody): FormData {
  if (body instanceof FormData) return body;
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) form.append(key, value, value instanceof File ? value.name : 'blob');
    else form.append(key, String(value));
  }
  return form;
}

interface RawInput {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export function buildRequest(ep: Endpoint, input: RawInput, token: string | null, language: string): [string, RequestInit] {
  const query = encodeForm(input.query).toString();
  const url = fillPath(ep.path, input.params) + (query ? `?${query}` : '');
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': language };
  if (token) headers.Authorization = `Bearer ${token}`;
  const init: RequestInit = { method: ep.method, headers };
  if (ep.method !== 'GET') {
    const encoding = ep.encoding ?? 'form';
    if (encoding === 'json') {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(input.body ?? {});
    } else if (encoding === 'multipart') {
      init.body = encodeMultipart((input.body ?? {}) as MultipartBody);
    } else if (input.body !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
      init.body = encodeForm(input.body as Record<string, unknown>).toString();
    }
  }
  return [url, init];
}

/** The text of a business code in the interface language; code 4 keeps the server's detail. */
export function codeText(code: number, serverMsg?: string, language = env.language()): string {
  if (code === ErrorCode.validation && serverMsg) return serverMsg;
  if (code in errorCatalogue) return errorText(code, toLanguage(language));
  return serverMsg || errorText(ErrorCode.serverError, toLanguage(language));
}

/** The longest Retry-After a GET waits out before its one more try; a longer one is shown at once. */
export const MAX_RETRY_WAIT_S = 10;

/** Retry-After in seconds (delta or HTTP date); null when absent or unreadable. */
function retryAfterSeconds(res: Response): number | null {
  const raw = res.headers.get('retry-after');
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000);
}

/** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

let refreshing: Promise<string> | null = null;
let serverDownOpen = false;

/** Test hook: forget the in-flight refresh and the open dialog. */
export function resetClientState(): void {
  refreshing = null;
  serverDownOpen = false;
}

function serverDown(options: CallOptions): never {
  const text = errorText(ErrorCode.serverError, toLanguage(env.language()));
  if (!options.quiet && !serverDownOpen) {
    serverDownOpen = true;
    env.confirmServerDown(text).finally(() => {
      serverDownOpen = false;
    });
  }
  throw new ApiError(ErrorCode.serverError, text);
}

function signedOut(): never {
  clearSession();
  env.goToLogin();
  throw new ApiError(ErrorCode.tokenFailed, errorText(ErrorCode.tokenFailed, toLanguage(env.language())));
}

/** One refresh for everyone: concurrent callers share the same promise (the "queue"). */
function refreshAccessToken(): Promise<string> {
  refreshing ??= (async () => {
    const stored = getStoredUser();
    if (!stored) return signedOut();
    const [url, init] = buildRequest(
      account.token,
      { body: { grant_type: limits.refreshGrantType, refresh_token: stored.refresh_token } },
      null,
      env.language(),
    );
    let res: Response;
    try {
      res = await fetch(url, init);
    } catch {
      // The server is unreachable: the session may still be good, so keep it.
      return serverDown({});
    }
    if (res.status >= 500) return serverDown({});
    const envelope = res.ok ? ((await res.json().catch(() => null)) as Envelope<TokenData> | null) : null;
    if (envelope?.code !== ErrorCode.ok) return signedOut();
    storeTokens(envelope.data);
    return envelope.data.access_token;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * A request its caller cancelled (a list query the user has typed past): it ends in the abort,
 * with no "server unreachable" dialog, whether the answer had not come or its body was being read.
 */
function cancelled(err: unknown, options: CallOptions): boolean {
  return (err as Error | null)?.name === 'AbortError' || options.signal?.aborted === true;
}

/** Whether an answer is the JSON envelope (file endpoints send anything else as the file). */
const isEnvelope = (res: Response) => /^application\/json\b/i.test(res.headers.get('content-type') ?? '');

async function send<E extends Endpoint>(
  ep: E,
  input: RawInput & CallOptions,
  replay: boolean,
  retried = false,
): Promise<DataOf<E>> {
  const token = getStoredUser()?.access_token ?? null;
  const [url, init] = buildRequest(ep, input, token, env.language());
  if (input.signal) init.signal = input.signal;
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (err) {
    if (cancelled(err, input)) throw err;
    return serverDown(input);
  }

  if (res.status === 401 && (ep as Endpoint) !== account.token) {
    const stored = getStoredUser();
    if (!stored) {
      env.goToLogin();
      throw new ApiError(ErrorCode.tokenFailed, errorText(ErrorCode.tokenFailed, toLanguage(env.language())));
    }
    if (replay) signedOut();
    // Another request already refreshed since this one was sent: just replay.
    if (stored.access_token === token) await refreshAccessToken();
    return send(ep, input, true, retried);
  }
  const retryAfter = res.status === 503 ? retryAfterSeconds(res) : null;
  if (retryAfter !== null && ep.method === 'GET' && !retried && retryAfter <= MAX_RETRY_WAIT_S) {
    await pause(retryAfter * 1000, input.signal);
    return send(ep, input, replay, true);
  }
  // A 503 with Retry-After carries the envelope (code 503), shown below like any other code.
  if (res.status >= 500 && retryAfter === null) return serverDown(input);
  // A file endpoint's refusal comes as the envelope (HTTP 200 with a code): shown, never saved as the file.
  if (ep.file && res.ok && !isEnvelope(res)) return (await res.blob()) as DataOf<E>;

  let envelope: Envelope<DataOf<E>>;
  try {
    envelope = (await res.json()) as Envelope<DataOf<E>>;
  } catch (err) {
    if (cancelled(err, input)) throw err;
    return serverDown(input);
  }
  if (envelope.code === ErrorCode.ok) return envelope.data;

  const { code } = envelope;
  const text = codeText(code, envelope.msg);
  const fields = code === ErrorCode.validation ? ((envelope.data as ValidationData | null)?.fields ?? []) : [];
  if (ep.tolerate?.includes(code) || input.tolerate?.includes(code)) {
    throw new ApiError(code, text, true, envelope.msg || null, fields);
  }
  if (code === ErrorCode.wrongCredentials) {
    clearSession();
    env.goToLogin();
    throw new ApiError(code, text);
  }
  if (!input.quiet) env.toast(text, (warningCodes as readonly number[]).includes(code) ? 'warning' : 'error');
  throw new ApiError(code, text, false, null, fields);
}

/** Call an endpoint: `call(account.getUser, { query: { lan: 'en' } })`. */
export function call<E extends Endpoint>(ep: E, ...[input]: CallArgs<E>): Promise<DataOf<E>> {
  return send(ep, (input ?? {}) as RawInput & CallOptions, false);
}
