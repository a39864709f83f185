import { account, type Endpoint, ErrorCode, errorText, plantEnergyApi } from '@sunfleet/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  buildRequest,
  type ClientEnvironment,
  call,
  configureClient,
  encodeForm,
  MAX_RETRY_WAIT_S,
  resetClientState,
} from './client.ts';
import { getStoredUser, storeTokens } from './session.ts';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (data: unknown) => json({ code: ErrorCode.ok, msg: 'ok', data });
const business = (code: number, msg = `server text ${code}`) => json({ code, msg, data: null });
const authOf = (init: RequestInit) => (init.headers as Record<string, string>).Authorization;

function mockFetch(handler: Handler) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(handler(String(input), init ?? {})));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function signIn(access = 'old-access', refresh = 'old-refresh') {
  storeTokens({ access_token: access, refresh_token: refresh, token_type: 'bearer', expires_in: 900, userId: 7 });
}

let env: { [K in keyof ClientEnvironment]: ReturnType<typeof vi.fn> };
beforeEach(() => {
  resetClientState();
  env = {
    toast: vi.fn(),
    confirmServerDown: vi.fn(() => new Promise<void>(() => {})),
    goToLogin: vi.fn(),
    language: vi.fn(() => 'en'),
  };
  configureClient(env as unknown as ClientEnvironment);
});

describe('envelope', () => {
  it('unwraps code 0 to data and sends the bearer token and query', async () => {
    signIn();
    const fetchMock = mockFetch(() => ok({ id: 7, nickname: 'Ana' }));
    await expect(call(account.getUser, { query: { lan: 'es' } })).resolves.toEqual({ id: 7, nickname: 'Ana' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/user?lan=es');
    expect(authOf(init!)).toBe('Bearer old-access');
    expect(env.toast).not.toHaveBeenCalled();
  });

  it('a code the endpoint tolerates is thrown to the screen without a toast', async () => {
    mockFetch(() => business(ErrorCode.accountRegistered));
    const err = await call(account.checkAccount, { query: { account: 'a@b.co', type: 'signup' } }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      code: ErrorCode.accountRegistered,
      tolerated: true,
      message: errorText(ErrorCode.accountRegistered, 'en'),
    });
    expect(env.toast).not.toHaveBeenCalled();
  });

  it('a tolerated code keeps the server’s own message beside the catalogue’s text (a device’s reason)', async () => {
    signIn();
    mockFetch(() => business(ErrorCode.noPermission, 'the plant is shared read-only'));
    const err = await call(account.getUser, { query: {}, tolerate: [ErrorCode.noPermission] }).catch((e) => e);
    expect(err).toMatchObject({
      code: ErrorCode.noPermission,
      message: errorText(ErrorCode.noPermission, 'en'),
      serverMessage: 'the plant is shared read-only',
    });
  });

  it('bad input carries the fields the server named (data.fields), toasted or tolerated', async () => {
    signIn();
    const msg = 'Invalid input: body.nickname must not be empty';
    mockFetch(() => json({ code: ErrorCode.validation, msg, data: { fields: ['nickname'] } }));
    const tolerated = await call(account.getUser, { query: {}, tolerate: [ErrorCode.validation] }).catch((e) => e);
    expect(tolerated).toMatchObject({ code: ErrorCode.validation, tolerated: true, message: msg, fields: ['nickname'] });
    const toasted = await call(account.getUser, { query: {} }).catch((e) => e);
    expect(toasted).toMatchObject({ code: ErrorCode.validation, tolerated: false, fields: ['nickname'] });
    // Another code's data is not fields.
    mockFetch(() => json({ code: ErrorCode.noPermission, msg: 'x', data: { fields: ['nickname'] } }));
    expect(await call(account.getUser, { query: {} }).catch((e) => e)).toMatchObject({ fields: [] });
  });

  it('a code the call tolerates is not toasted either', async () => {
    signIn();
    mockFetch(() => business(ErrorCode.noPermission));
    await expect(call(account.getUser, { query: {}, tolerate: [ErrorCode.noPermission] })).rejects.toMatchObject({
      code: ErrorCode.noPermission,
      tolerated: true,
    });
    expect(env.toast).not.toHaveBeenCalled();
  });

  it('any other code is toasted in the interface language and thrown', async () => {
    signIn();
    env.language.mockReturnValue('es');
    mockFetch(() => business(ErrorCode.plantMissing));
    await expect(call(account.getUser, { query: {} })).rejects.toMatchObject({ code: ErrorCode.plantMissing, tolerated: false });
    expect(env.toast).toHaveBeenCalledWith(errorText(ErrorCode.plantMissing, 'es'), 'error');
  });

  it('4001 is a warning-style toast', async () => {
    signIn();
    mockFetch(() => business(ErrorCode.firmwareLatest));
    await expect(call(account.getUser, { query: {} })).rejects.toBeInstanceOf(ApiError);
    expect(env.toast).toHaveBeenCalledWith(errorText(ErrorCode.firmwareLatest, 'en'), 'warning');
  });
});

describe('code 102', () => {
  it('clears the stored user and goes to /login', async () => {
    signIn();
    mockFetch(() => business(ErrorCode.wrongCredentials));
    await expect(call(account.getUser, { query: {} })).rejects.toMatchObject({ code: ErrorCode.wrongCredentials });
    expect(getStoredUser()).toBeNull();
    expect(localStorage.getItem('userInfo')).toBeNull();
    expect(env.goToLogin).toHaveBeenCalledTimes(1);
  });

  it('is tolerated by the login call itself', async () => {
    mockFetch(() => business(ErrorCode.wrongCredentials));
    const login = call(account.token, { body: { grant_type: 'password', username: 'a@b.co', password: 'wrong-one' } });
    await expect(login).rejects.toMatchObject({ code: ErrorCode.wrongCredentials, tolerated: true });
    expect(env.goToLogin).not.toHaveBeenCalled();
    expect(env.toast).not.toHaveBeenCalled();
  });
});

describe('HTTP 401', () => {
  it('without a stored user goes to /login and does not refresh', async () => {
    const fetchMock = mockFetch(() => json({ code: ErrorCode.tokenFailed, msg: 'x', data: null }, 401));
    await expect(call(account.getUser, { query: {} })).rejects.toMatchObject({ code: ErrorCode.tokenFailed });
    expect(env.goToLogin).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('refreshes once while concurrent 401s queue, then replays them with the new token', async () => {
    signIn();
    let releaseRefresh!: () => void;
    const refreshGate = new Promise<void>((resolve) => {
      releaseRefresh = resolve;
    });
    const replayedWith: string[] = [];
    const fetchMock = mockFetch(async (url, init) => {
      if (url === '/oauth/token') {
        expect(JSON.parse(String(init.body))).toEqual({ grant_type: 'refresh_token', refresh_token: 'old-refresh' });
        await refreshGate;
        return ok({ access_token: 'new-access', refresh_token: 'new-refresh', token_type: 'bearer', expires_in: 900, userId: 7 });
      }
      if (authOf(init) === 'Bearer old-access') return json({ code: ErrorCode.tokenFailed, msg: 'expired', data: null }, 401);
      replayedWith.push(authOf(init)!);
      return ok({ url });
    });

    const calls = [call(account.getUser, { query: { lan: 'en' } }), call(account.getNotify), call(account.getPersonalized)];
    await vi.waitFor(() => expect(fetchMock.mock.calls.filter(([u]) => u === '/oauth/token')).toHaveLength(1));
    releaseRefresh();
    const results = await Promise.all(calls);

    expect(results.map((r) => (r as { url: string }).url)).toEqual([
      '/api/v1/user?lan=en',
      '/api/v1/user/notify/enable',
      '/api/v1/user/personalized',
    ]);
    expect(fetchMock.mock.calls.filter(([u]) => u === '/oauth/token')).toHaveLength(1);
    expect(replayedWith).toEqual(['Bearer new-access', 'Bearer new-access', 'Bearer new-access']);
    expect(getStoredUser()).toEqual({ access_token: 'new-access', refresh_token: 'new-refresh' });
  });

  it('a failed refresh rejects every queued request, clears storage and goes to /login', async () => {
    signIn();
    const fetchMock = mockFetch((url) => {
      if (url === '/oauth/token') return json({ code: ErrorCode.tokenFailed, msg: 'refused', data: null }, 401);
      return json({ code: ErrorCode.tokenFailed, msg: 'expired', data: null }, 401);
    });
    const results = await Promise.allSettled([call(account.getUser, { query: {} }), call(account.getNotify)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (const r of results) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: ErrorCode.tokenFailed });
    expect(fetchMock.mock.calls.filter(([u]) => u === '/oauth/token')).toHaveLength(1);
    expect(getStoredUser()).toBeNull();
    expect(env.goToLogin).toHaveBeenCalledTimes(1);
  });

  it('a replay that is refused again signs out instead of refreshing forever', async () => {
    signIn();
    const fetchMock = mockFetch((url) =>
      url === '/oauth/token'
        ? ok({ access_token: 'new-access', refresh_token: 'new-refresh', token_type: 'bearer', expires_in: 900, userId: 7 })
        : json({ code: ErrorCode.tokenFailed, msg: 'no', data: null }, 401),
    );
    await expect(call(account.getNotify)).rejects.toMatchObject({ code: ErrorCode.tokenFailed });
    expect(fetchMock.mock.calls.filter(([u]) => u === '/oauth/token')).toHaveLength(1);
    expect(getStoredUser()).toBeNull();
  });
});

describe('server down', () => {
  it('a network error or 5xx opens one confirm dialog at a time', async () => {
    signIn();
    let close!: () => void;
    env.confirmServerDown.mockImplementation(
      () =>
        new Promise<void>((resolve) => {
          close = resolve;
        }),
    );
    mockFetch((url) => {
      if (url.includes('personalized')) return new Response('oops', { status: 503 });
      throw new TypeError('Failed to fetch');
    });
    const results = await Promise.allSettled([call(account.getNotify), call(account.getPersonalized), call(account.getNotify)]);
    for (const r of results) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: ErrorCode.serverError });
    expect(env.confirmServerDown).toHaveBeenCalledTimes(1);
    expect(env.confirmServerDown).toHaveBeenCalledWith(errorText(ErrorCode.serverError, 'en'));
    expect(env.toast).not.toHaveBeenCalled();

    close();
    await Promise.resolve();
    await Promise.resolve();
    await expect(call(account.getPersonalized)).rejects.toMatchObject({ code: ErrorCode.serverError });
    expect(env.confirmServerDown).toHaveBeenCalledTimes(2);
  });
});

describe('briefly unavailable (503 with Retry-After)', () => {
  const unavailable = (retryAfter: string) =>
    new Response(JSON.stringify({ code: ErrorCode.storeUnavailable, msg: 'busy', data: null }), {
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
    });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a GET waits the Retry-After and is sent once more', async () => {
    vi.useFakeTimers();
    signIn();
    let calls = 0;
    const fetchMock = mockFetch(() => (++calls === 1 ? unavailable('2') : ok({ id: 7 })));
    const result = call(account.getUser, { query: {} });
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ id: 7 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(env.toast).not.toHaveBeenCalled();
    expect(env.confirmServerDown).not.toHaveBeenCalled();
  });

  it('a GET refused twice shows the message of code 503, not the server-down dialog', async () => {
    vi.useFakeTimers();
    signIn();
    const fetchMock = mockFetch(() => unavailable('1'));
    const result = call(account.getUser, { query: {} }).catch((e) => e);
    await vi.advanceTimersByTimeAsync(1000);
    const err = await result;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: ErrorCode.storeUnavailable, message: errorText(ErrorCode.storeUnavailable, 'en') });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(env.toast).toHaveBeenCalledExactlyOnceWith(errorText(ErrorCode.storeUnavailable, 'en'), 'error');
    expect(env.confirmServerDown).not.toHaveBeenCalled();
  });

  it('a call that writes is not sent again: its error is shown at once', async () => {
    signIn();
    const fetchMock = mockFetch(() => unavailable('1'));
    const err = await call(account.updateUser, { params: { id: 7 }, body: { nickname: 'Ana' } }).catch((e) => e);
    expect(err).toMatchObject({ code: ErrorCode.storeUnavailable });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(env.toast).toHaveBeenCalledExactlyOnceWith(errorText(ErrorCode.storeUnavailable, 'en'), 'error');
  });

  it(`a wait over ${MAX_RETRY_WAIT_S} s is not waited out; a cancelled wait sends nothing more`, async () => {
    signIn();
    const fetchMock = mockFetch(() => unavailable(String(MAX_RETRY_WAIT_S + 1)));
    await expect(call(account.getUser, { query: {} })).rejects.toMatchObject({ code: ErrorCode.storeUnavailable });
    expect(fetchMock).toHaveBeenCalledTimes(1);

    const controller = new AbortController();
    const again = mockFetch(() => unavailable('5'));
    const pending = call(account.getUser, { query: {}, signal: controller.signal }).catch((e) => e);
    await Promise.resolve();
    controller.abort();
    expect((await pending).name).toBe('AbortError');
    expect(again).toHaveBeenCalledTimes(1);
  });
});

describe('cancelled requests', () => {
  it('a query cancelled while its answer is read ends in the abort, with no "server unreachable" dialog', async () => {
    signIn();
    const controller = new AbortController();
    // The headers are in and the body is on its way when the caller cancels (as fetch does, the
    // body then fails with the abort).
    mockFetch((_url, init) => {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"code":0,'));
          init.signal?.addEventListener('abort', () => c.error(new DOMException('The operation was aborted.', 'AbortError')));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const pending = call(account.getUser, { query: {}, signal: controller.signal }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 0));
    controller.abort();
    expect((await pending).name).toBe('AbortError');
    expect(env.confirmServerDown).not.toHaveBeenCalled();
  });

  it('an answer that is not JSON still says the server is down', async () => {
    signIn();
    mockFetch(() => new Response('<html>proxy error</html>', { status: 200 }));
    await expect(call(account.getUser, { query: {} })).rejects.toMatchObject({ code: ErrorCode.serverError });
    expect(env.confirmServerDown).toHaveBeenCalledOnce();
  });
});

describe('encodings', () => {
  it('form-encodes by default', async () => {
    signIn();
    const fetchMock = mockFetch(() => ok({}));
    await call(account.updateUser, { params: { id: 7 }, body: { nickname: 'Ana María', temperatureUnit: 'F' } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/user/7');
    expect(init!.method).toBe('POST');
    expect((init!.headers as Record<string, string>)['Content-Type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(init!.body).toBe('nickname=Ana+Mar%C3%ADa&temperatureUnit=F');
  });

  it('repeats the key for each array item, in bodies and queries', () => {
    const ep: Endpoint = { method: 'POST', path: '/api/v1/plants/:id/share', access: 'user', summary: 't', data: {} as never };
    const [url, init] = buildRequest(
      ep,
      { params: { id: 3 }, query: { gsns: ['A1', 'B2'] }, body: { plantIds: [1, 2, 3], note: null } },
      null,
      'en',
    );
    expect(url).toBe('/api/v1/plants/3/share?gsns=A1&gsns=B2');
    expect(init.body).toBe('plantIds=1&plantIds=2&plantIds=3');
    expect(encodeForm({ a: [], b: undefined, c: true }).toString()).toBe('c=true');
  });

  it("sends JSON for encoding 'json'", async () => {
    const fetchMock = mockFetch(() => ok({ userId: 9 }));
    await call(account.signup, { body: { account: 'new@b.co', password: 'secret12', code: '123456' } });
    const init = fetchMock.mock.calls[0]![1]!;
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(JSON.parse(String(init.body))).toEqual({ account: 'new@b.co', password: 'secret12', code: '123456' });
    expect(authOf(init)).toBeUndefined();
  });

  it("sends multipart FormData for encoding 'multipart'", async () => {
    signIn();
    const fetchMock = mockFetch(() => ok({ avatar: '/uploads/avatars/x.png' }));
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });
    await expect(call(account.uploadAvatar, { params: { id: 7 }, body: { file } })).resolves.toEqual({
      avatar: '/uploads/avatars/x.png',
    });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.body).toBeInstanceOf(FormData);
    expect((init.body as FormData).get('file')).toBeInstanceOf(File);
    expect(((init.body as FormData).get('file') as File).name).toBe('me.png');
    // The browser sets the multipart boundary itself.
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });
});

describe('file endpoints', () => {
  it('a file is returned as a Blob; a refusal in the envelope is shown and never saved as the file', async () => {
    signIn();
    const input = { query: { plantId: 4, period: 'day' as const, date: '2026-12-07' } };
    const xlsx = new Uint8Array([0x50, 0x4b, 0x03, 0x04]);
    mockFetch(
      () =>
        new Response(xlsx, {
          status: 200,
          headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
        }),
    );
    const file = await call(plantEnergyApi.generationDownload, input as never);
    // (The response's Blob is Node's, not the test DOM's: compared by its bytes.)
    expect(new Uint8Array(await (file as unknown as Blob).arrayBuffer())).toEqual(xlsx);
    mockFetch(() => business(ErrorCode.noPermission));
    const err = await call(plantEnergyApi.generationDownload, input as never).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: ErrorCode.noPermission });
    expect(env.toast).toHaveBeenCalledTimes(1);
  });
});
