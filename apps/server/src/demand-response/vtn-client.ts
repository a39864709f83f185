/**
 * The VEN's HTTP client of an OpenADR 3.1 VTN (openadr3-3.1.0.yaml): OAuth2 client credentials
 * (the token endpoint from `/auth/server`, else `{vtn}/auth/token`), bearer tokens kept until
 * shortly before they expire and fetched again once on a 401, JSON in and out, every answer
 * normalised (wire.ts) before use. A transport failure or an HTTP status other than 2xx is a
 * VtnError: callers keep what they were sending in the store and try again later.
 */
import type { OadrConfig } from '../config.ts';
import { asEvent, asProgram, camelKeys, decodeBody, type OadrEvent, type OadrProgram } from './wire.ts';

export class VtnError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the VTN was not reached. */
    readonly status: number,
  ) {
    super(message);
  }
}

export interface VenObject {
  id: string;
  venName: string;
  /** Targets the utility granted this VEN. */
  targets?: unknown;
}
export interface ResourceObject {
  id: string;
  resourceName: string;
  venID: string;
  /** Targets the utility granted this resource. */
  targets?: unknown;
}
export interface SubscriptionObject {
  id: string;
  clientName: string;
  objectOperations: { objects: string[]; operations: string[]; callbackUrl: string; bearerToken?: string | null }[];
}

const PAGE = 50;
const TIMEOUT_MS = 10_000;

export class VtnClient {
  private token: { value: string; until: number } | null = null;
  private tokenUrl: string | null = null;

  constructor(
    readonly config: Pick<OadrConfig, 'vtnUrl' | 'clientId' | 'clientSecret'>,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private async tokenEndpoint(): Promise<string> {
    if (this.tokenUrl) return this.tokenUrl;
    let url = `${this.config.vtnUrl}/auth/token`;
    try {
      const res = await this.fetchImpl(`${this.config.vtnUrl}/auth/server`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (res.ok) {
        const info = camelKeys(await res.json()) as { tokenURL?: string; tokenUrl?: string };
        const given = info.tokenURL ?? info.tokenUrl;
        if (given) url = new URL(given, `${this.config.vtnUrl}/`).toString();
      }
    } catch (err) {
      throw new VtnError(`VTN unreachable: ${(err as Error).message}`, 0);
    }
    this.tokenUrl = url;
    return url;
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const url = await this.tokenEndpoint();
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
    });
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new VtnError(`token endpoint unreachable: ${(err as Error).message}`, 0);
    }
    if (!res.ok) throw new VtnError(`token refused: HTTP ${res.status}`, res.status);
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new VtnError('token endpoint answered without access_token', res.status);
    // A token is used until a minute before it expires (or for 5 minutes when no expiry is given).
    const life = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : 360_000;
    this.token = { value: body.access_token, until: Date.now() + Math.max(1000, life - 60_000) };
    return body.access_token;
  }

  /** One request; the answer's JSON normalised, null for an empty body. */
  async request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken();
      let res: Response;
      try {
        res = await this.fetchImpl(`${this.config.vtnUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (err) {
        throw new VtnError(`${method} ${path}: ${(err as Error).message}`, 0);
      }
      if (res.status === 401 && attempt === 0) {
        this.token = null;
        continue;
      }
      const text = await res.text();
      if (!res.ok) throw new VtnError(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 200)}`, res.status);
      return text.trim() === '' ? null : decodeBody(text);
    }
  }

  private async all(path: string): Promise<unknown[]> {
    const out: unknown[] = [];
    const sep = path.includes('?') ? '&' : '?';
    for (let skip = 0; ; skip += PAGE) {
      const page = await this.request('GET', `${path}${sep}skip=${skip}&limit=${PAGE}`);
      const list = Array.isArray(page) ? page : [];
      out.push(...list);
      if (list.length < PAGE) return out;
    }
  }

  async programs(): Promise<OadrProgram[]> {
    return (await this.all('/programs')).map(asProgram).filter((p): p is OadrProgram => p !== null);
  }

  async events(programId?: string): Promise<OadrEvent[]> {
    const q = programId ? `/events?programID=${encodeURIComponent(programId)}` : '/events';
    return (await this.all(q)).map(asEvent).filter((e): e is OadrEvent => e !== null);
  }

  /** The event, or null when the VTN has none by that id (deleted). */
  async event(id: string): Promise<OadrEvent | null> {
    try {
      return asEvent(await this.request('GET', `/events/${encodeURIComponent(id)}`));
    } catch (err) {
      if (err instanceof VtnError && err.status === 404) return null;
      throw err;
    }
  }

  /** The ven object, or null when the VTN has none by that id. */
  async ven(id: string): Promise<VenObject | null> {
    try {
      const v = (await this.request('GET', `/vens/${encodeURIComponent(id)}`)) as VenObject | null;
      return v && typeof v === 'object' ? { ...v, id: String(v.id) } : null;
    } catch (err) {
      if (err instanceof VtnError && err.status === 404) return null;
      throw err;
    }
  }

  async findVen(venName: string): Promise<VenObject | null> {
    const list = await this.request('GET', `/vens?venName=${encodeURIComponent(venName)}`);
    const found = (Array.isArray(list) ? list : []).find((v) => (v as VenObject).venName === venName) as VenObject | undefined;
    return found ? { ...found, id: String(found.id) } : null;
  }

  async createVen(venName: string): Promise<VenObject> {
    const v = (await this.request('POST', '/vens', { objectType: 'VEN_VEN_REQUEST', venName })) as VenObject;
    return { ...v, id: String(v.id) };
  }

  async resources(venId: string): Promise<ResourceObject[]> {
    return (await this.all(`/resources?venID=${encodeURIComponent(venId)}`))
      .map((r) => ({ ...(r as ResourceObject), id: String((r as ResourceObject).id) }))
      .filter((r) => r.venID === undefined || String(r.venID) === venId);
  }

  async createResource(
    venId: string,
    resourceName: string,
    attributes: { type: string; values: unknown[] }[],
  ): Promise<ResourceObject> {
    const r = (await this.request('POST', '/resources', {
      objectType: 'VEN_RESOURCE_REQUEST',
      resourceName,
      venID: venId,
      attributes,
    })) as ResourceObject;
    return { ...r, id: String(r.id) };
  }

  async deleteResource(id: string): Promise<void> {
    try {
      await this.request('DELETE', `/resources/${encodeURIComponent(id)}`);
    } catch (err) {
      if (!(err instanceof VtnError && err.status === 404)) throw err;
    }
  }

  async subscriptions(clientName: string): Promise<SubscriptionObject[]> {
    return (await this.all(`/subscriptions?clientName=${encodeURIComponent(clientName)}`)).map((s) => ({
      ...(s as SubscriptionObject),
      id: String((s as SubscriptionObject).id),
    }));
  }

  async createSubscription(clientName: string, callbackUrl: string, bearerToken: string): Promise<SubscriptionObject> {
    const s = (await this.request('POST', '/subscriptions', {
      clientName,
      objectOperations: [{ objects: ['PROGRAM', 'EVENT'], operations: ['CREATE', 'UPDATE', 'DELETE'], callbackUrl, bearerToken }],
    })) as SubscriptionObject;
    return { ...s, id: String(s.id) };
  }

  async deleteSubscription(id: string): Promise<void> {
    try {
      await this.request('DELETE', `/subscriptions/${encodeURIComponent(id)}`);
    } catch (err) {
      if (!(err instanceof VtnError && err.status === 404)) throw err;
    }
  }

  async createReport(report: unknown): Promise<unknown> {
    return this.request('POST', '/reports', report);
  }
}
