/**
 * An OpenADR 3.1 VTN for tests (see README.md): the VEN's peer, started by the test that needs it
 * on a free loopback port. State is in memory; ids are strings counting from 0 as the reference
 * VTN's.
 */
import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { OpenAdrSpec } from './openapi.ts';

/**
 * What real VTNs do that the specification does not ask for, each a switch (all off: the VTN as
 * the specification describes it).
 */
export interface VtnBehaviour {
  /** Timestamps as `2026-11-21 21:42:26`: a space for `T`, no offset (the reference VTN). */
  spaceTimestamps: boolean;
  /** The echo challenge at `{callbackUrl}/echo?echo=` instead of `{callbackUrl}?echo=` (the reference VTN). */
  echoAtPath: boolean;
  /** Webhook bodies as a JSON-encoded string of a snake_case object (the reference VTN). */
  doubleEncodedBodies: boolean;
  /** A report whose eventID names no event is refused with 400 (the reference VTN: "event_id does not refer to an existing event"). */
  reportsNeedEvent: boolean;
  /** Every subscriber is notified of every object, whatever the object's targets. */
  notifyAllSubscribers: boolean;
  /** `GET /events?programID=` answers the events of every programme. */
  ignoreProgramFilter: boolean;
  /** Reads answer objects whatever their targets (no target filtering for the reading VEN). */
  ignoreTargets: boolean;
}

const SPEC: VtnBehaviour = {
  spaceTimestamps: false,
  echoAtPath: false,
  doubleEncodedBodies: false,
  reportsNeedEvent: false,
  notifyAllSubscribers: false,
  ignoreProgramFilter: false,
  ignoreTargets: false,
};
/** The OpenADR Alliance's reference VTN as it was captured (`../shared/data/openadr3/reference-vtn-samples`). */
const REFERENCE: VtnBehaviour = {
  ...SPEC,
  spaceTimestamps: true,
  echoAtPath: true,
  doubleEncodedBodies: true,
  reportsNeedEvent: true,
};

export interface TestVtnOptions {
  clientId?: string;
  clientSecret?: string;
  /** 'spec': answers and notifications are also checked against the OpenAPI file; 'reference': the reference VTN's quirks. */
  quirks?: 'spec' | 'reference';
  /** Switches over the preset of `quirks`. */
  behaviour?: Partial<VtnBehaviour>;
}

type Obj = Record<string, unknown> & { id: string };
type Kind = 'programs' | 'events' | 'vens' | 'resources' | 'subscriptions' | 'reports';
const objectTypes: Record<Kind, string> = {
  programs: 'PROGRAM',
  events: 'EVENT',
  vens: 'VEN',
  resources: 'RESOURCE',
  subscriptions: 'SUBSCRIPTION',
  reports: 'REPORT',
};

const snake = (k: string) => k.replace(/ID$/, '_id').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
function snakeKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snakeKeys);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [k === 'values' ? k : snake(k), k === 'values' ? x : snakeKeys(x)]),
  );
}

let loaded: OpenAdrSpec | null = null;
const spec = () => {
  loaded ??= new OpenAdrSpec();
  return loaded;
};

export class TestVtn {
  readonly app: FastifyInstance;
  url = '';
  /** Every call answers 503 while set. */
  down = false;
  readonly store: Record<Kind, Map<string, Obj>> = {
    programs: new Map(),
    events: new Map(),
    vens: new Map(),
    resources: new Map(),
    subscriptions: new Map(),
    reports: new Map(),
  };
  /** Notifications delivered (callback status per POST). */
  readonly deliveries: { url: string; status: number; objectType: string; operation: string }[] = [];
  /** Every request received: method, path and status, in order. */
  readonly requests: { method: string; url: string; status: number }[] = [];
  /** Echo challenges sent and whether the answer matched. */
  readonly echoes: { url: string; ok: boolean }[] = [];
  /**
   * What did not conform to the OpenAPI file: every request received (path, query, body), and, as
   * the specification describes the VTN (quirks 'spec'), every answer and notification sent.
   */
  readonly violations: string[] = [];
  private seq = 0;
  private readonly tokens = new Set<string>();
  readonly clientId: string;
  readonly clientSecret: string;
  readonly quirks: 'spec' | 'reference';
  /** The switches in force; a test may change them at any time. */
  readonly behaviour: VtnBehaviour;

  constructor(opts: TestVtnOptions = {}) {
    this.clientId = opts.clientId ?? 'ven_client';
    this.clientSecret = opts.clientSecret ?? 'ven_secret';
    this.quirks = opts.quirks ?? 'spec';
    this.behaviour = { ...(this.quirks === 'reference' ? REFERENCE : SPEC), ...opts.behaviour };
    this.app = Fastify({ logger: false });
    this.app.register(formbody);
    this.app.addHook('preHandler', async (req) => {
      if (req.url.startsWith('/auth/')) return;
      this.violations.push(...spec().checkRequest(req.method, req.url, req.body));
    });
    this.app.addHook('onSend', async (req, reply, payload) => {
      if (this.quirks !== 'spec' || req.url.startsWith('/auth/') || reply.statusCode >= 300 || typeof payload !== 'string')
        return payload;
      this.violations.push(...spec().checkResponse(req.method, req.url, reply.statusCode, JSON.parse(payload)));
      return payload;
    });
    this.app.addHook('onResponse', async (req, reply) => {
      this.requests.push({ method: req.method, url: req.url, status: reply.statusCode });
    });
    this.app.addHook('onRequest', async (req, reply) => {
      if (this.down) return reply.code(503).send({ title: 'Service Unavailable', status: 503 });
      if (req.url.startsWith('/auth/')) return;
      const auth = req.headers.authorization ?? '';
      if (!this.tokens.has(auth.replace(/^Bearer /, ''))) return reply.code(401).send({ title: 'Unauthorized', status: 401 });
    });
    this.routes();
  }

  async start(): Promise<this> {
    await this.app.listen({ port: 0, host: '127.0.0.1' });
    const a = this.app.server.address();
    this.url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
    return this;
  }

  close() {
    return this.app.close();
  }

  private time(): string {
    const iso = new Date().toISOString().slice(0, 19);
    return this.behaviour.spaceTimestamps ? iso.replace('T', ' ') : `${iso}Z`;
  }

  private create(kind: Kind, body: Record<string, unknown>): Obj {
    const id = String(this.seq++);
    const t = this.time();
    const obj: Obj = { ...body, id, createdDateTime: t, modificationDateTime: t, objectType: objectTypes[kind] };
    delete (obj as Record<string, unknown>).objectType;
    obj.objectType = objectTypes[kind];
    this.store[kind].set(id, obj);
    return obj;
  }

  private list(kind: Kind, req: FastifyRequest, filter: (o: Obj) => boolean = () => true) {
    const q = req.query as Record<string, string>;
    const skip = Number(q.skip ?? 0);
    const limit = Math.min(50, Number(q.limit ?? 50));
    return [...this.store[kind].values()].filter(filter).slice(skip, skip + limit);
  }

  private routes() {
    const app = this.app;
    app.get('/auth/server', async () => ({ tokenURL: `${this.url}/auth/token` }));
    app.post('/auth/token', async (req, reply) => {
      const b = req.body as Record<string, string>;
      if (b.grant_type !== 'client_credentials') return reply.code(400).send({ error: 'unsupported_grant_type' });
      if (b.client_id !== this.clientId || b.client_secret !== this.clientSecret)
        return reply.code(401).send({ error: 'invalid_client' });
      const token = randomBytes(16).toString('hex');
      this.tokens.add(token);
      return { access_token: token, token_type: 'Bearer', expires_in: 3600 };
    });
    for (const kind of Object.keys(objectTypes) as Kind[]) {
      app.get(`/${kind}`, async (req) => {
        const q = req.query as Record<string, string>;
        const programID = kind === 'events' && this.behaviour.ignoreProgramFilter ? undefined : q.programID;
        return this.list(
          kind,
          req,
          (o) =>
            this.readable(o) &&
            Object.entries({ programID, venName: q.venName, venID: q.venID, clientName: q.clientName }).every(
              ([k, v]) => v === undefined || o[k] === undefined || String(o[k]) === v,
            ),
        );
      });
      app.get(`/${kind}/:id`, async (req, reply) => {
        const o = this.store[kind].get((req.params as { id: string }).id);
        return o && this.readable(o) ? o : reply.code(404).send({ title: 'Not Found', status: 404 });
      });
      app.post(`/${kind}`, async (req, reply) => this.post(kind, req, reply));
      app.put(`/${kind}/:id`, async (req, reply) => {
        const id = (req.params as { id: string }).id;
        const o = this.store[kind].get(id);
        if (!o) return reply.code(404).send({ title: 'Not Found', status: 404 });
        const next = { ...o, ...(req.body as object), id, modificationDateTime: this.time() } as Obj;
        this.store[kind].set(id, next);
        await this.notify(kind, 'UPDATE', next);
        return next;
      });
      app.delete(`/${kind}/:id`, async (req, reply) => {
        const id = (req.params as { id: string }).id;
        const o = this.store[kind].get(id);
        if (!o) return reply.code(404).send({ title: 'Not Found', status: 404 });
        this.store[kind].delete(id);
        await this.notify(kind, 'DELETE', o);
        return o;
      });
    }
  }

  private async post(kind: Kind, req: FastifyRequest, reply: FastifyReply) {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const bad = (detail: string) => reply.code(400).send({ title: 'Bad Request', status: 400, detail });
    if (kind === 'vens') {
      if (typeof body.venName !== 'string' || !body.venName) return bad('venName required');
      if ([...this.store.vens.values()].some((v) => v.venName === body.venName))
        return reply.code(409).send({ title: 'Conflict', status: 409 });
      const { objectType: _t, ...rest } = body;
      return reply.code(201).send(this.create('vens', { ...rest, clientID: this.clientId }));
    }
    if (kind === 'resources') {
      if (typeof body.resourceName !== 'string' || typeof body.venID !== 'string' || !this.store.vens.has(body.venID))
        return bad('resourceName and a known venID required');
      const { objectType: _t, ...rest } = body;
      return reply.code(201).send(this.create('resources', { ...rest, clientID: this.clientId }));
    }
    if (kind === 'subscriptions') {
      const ops = body.objectOperations as { callbackUrl: string; bearerToken?: string }[] | undefined;
      if (typeof body.clientName !== 'string' || !Array.isArray(ops) || ops.length === 0)
        return bad('clientName and objectOperations required');
      for (const op of ops) {
        const challenge = randomBytes(8).toString('hex');
        const echoUrl = this.behaviour.echoAtPath
          ? `${op.callbackUrl}/echo?echo=${challenge}`
          : `${op.callbackUrl}?echo=${challenge}`;
        let ok = false;
        try {
          const res = await fetch(echoUrl, { signal: AbortSignal.timeout(5000) });
          ok = res.ok && (await res.text()).includes(challenge);
        } catch {
          ok = false;
        }
        this.echoes.push({ url: op.callbackUrl, ok });
        if (!ok) return bad('callback URL did not answer the echo challenge');
      }
      return reply.code(201).send(this.create('subscriptions', { ...body, clientID: this.clientId }));
    }
    if (kind === 'reports') {
      if (typeof body.eventID !== 'string' || typeof body.clientName !== 'string' || !Array.isArray(body.resources))
        return bad('eventID, clientName and resources required');
      if (this.behaviour.reportsNeedEvent && !this.store.events.has(body.eventID))
        return bad('event_id does not refer to an existing event');
      return reply.code(201).send(this.create('reports', { ...body, clientID: this.clientId }));
    }
    // programs and events are the business logic's: the VEN never creates them.
    return reply.code(403).send({ title: 'Forbidden', status: 403 });
  }

  /** POST the notification to each subscriber of (object, operation). */
  async notify(kind: Kind, operation: 'CREATE' | 'UPDATE' | 'DELETE', object: Obj): Promise<void> {
    const objectType = objectTypes[kind];
    for (const sub of this.store.subscriptions.values()) {
      const ops = sub.objectOperations as {
        objects: string[];
        operations: string[];
        callbackUrl: string;
        bearerToken?: string;
      }[];
      if (!this.behaviour.notifyAllSubscribers && !this.readable(object, String(sub.clientID ?? this.clientId))) continue;
      for (const op of ops) {
        if (!op.objects.includes(objectType) || !op.operations.includes(operation)) continue;
        const n = { objectType, operation, object, targets: null };
        if (this.quirks === 'spec') this.violations.push(...spec().check('notification', n));
        const body = this.behaviour.doubleEncodedBodies ? JSON.stringify(JSON.stringify(snakeKeys(n))) : JSON.stringify(n);
        let status = 0;
        try {
          const res = await fetch(op.callbackUrl, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(op.bearerToken ? { authorization: `Bearer ${op.bearerToken}` } : {}),
            },
            body,
            signal: AbortSignal.timeout(10_000),
          });
          status = res.status;
        } catch {
          status = 0;
        }
        this.deliveries.push({ url: op.callbackUrl, status, objectType, operation });
      }
    }
  }

  /**
   * Whether a VEN client may read the object: an object without targets is for every VEN; one with
   * targets only for a VEN granted one of them (its ven object's or its resources' targets).
   */
  private readable(o: Obj, clientId = this.clientId): boolean {
    const targets = Array.isArray(o.targets) ? (o.targets as unknown[]).map(String) : [];
    if (targets.length === 0 || this.behaviour.ignoreTargets) return true;
    if (o.objectType !== 'EVENT' && o.objectType !== 'PROGRAM') return true;
    const vens = [...this.store.vens.values()].filter((v) => String(v.clientID) === clientId);
    const venIds = new Set(vens.map((v) => v.id));
    const granted = new Set(
      [...vens, ...[...this.store.resources.values()].filter((r) => venIds.has(String(r.venID)))].flatMap((x) =>
        Array.isArray(x.targets) ? (x.targets as unknown[]).map(String) : [],
      ),
    );
    return targets.some((t) => granted.has(t));
  }

  /**
   * The VTN restarted without its state (a wiped database): every object is gone, the VEN's
   * tokens are no longer known, and ids count from 0 again, so old ids name new objects.
   */
  loseState(): void {
    for (const m of Object.values(this.store)) m.clear();
    this.tokens.clear();
    this.seq = 0;
  }

  /** The business logic's side. */
  readonly bl = {
    /** Grant targets to a ven or resource object (only the business logic may). */
    grant: (kind: 'vens' | 'resources', id: string, targets: string[]) => {
      const o = this.store[kind].get(id);
      if (!o) throw new Error(`no ${kind} ${id}`);
      o.targets = targets;
    },
    program: (body: Record<string, unknown>) => this.create('programs', body),
    event: async (body: Record<string, unknown>) => {
      const e = this.create('events', body);
      await this.notify('events', 'CREATE', e);
      return e;
    },
    updateEvent: async (id: string, patch: Record<string, unknown>) => {
      const next = { ...this.store.events.get(id)!, ...patch, modificationDateTime: this.time() } as Obj;
      this.store.events.set(id, next);
      await this.notify('events', 'UPDATE', next);
      return next;
    },
    deleteEvent: async (id: string) => {
      const o = this.store.events.get(id)!;
      this.store.events.delete(id);
      await this.notify('events', 'DELETE', o);
    },
  };
}
