/**
 * The API fuzzed from its own contracts: every operation of the route table, as the system
 * administrator, the installer, the owner and no one, with requests derived from the endpoint's
 * schemas, valid and malformed (boundaries, wrong types, huge and unicode strings, non-finite
 * numbers, extra properties, deep nesting, other tenants' and non-existent ids, repeated query
 * parameters, broken multipart, bad path segments and tokens), sent 8 at a time. No answer is a
 * 5xx, every answer is the `{ code, msg, data }` envelope (a file only as a file route's 200),
 * every status is one the operation's API description documents; the server still answers
 * afterwards, and a server started anew on the fuzzed store and data folder starts.
 * Seeded: FUZZ_SEED picks another run, FUZZ_RUNS more requests per operation and caller.
 * Findings of rules still broken are excused one by one below (FUZZ_EXCUSE=off fails on them too).
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoAccounts } from '../../src/bootstrap/demo.ts';
import { startServer, type TestServer } from '../harness.ts';
import type { Operation } from './requests.ts';
import { envelopeProblem, type FindingKind, type FuzzStats, findingLines, fuzz, markRoutes, operations } from './run.ts';
import { buildWorld } from './world.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261207);
const PER_CALLER = Number(process.env.FUZZ_RUNS ?? 2);

/**
 * Rules still broken, each excused only on its own kind and status and on the requests the
 * rule names: the findings are counted under the rule and printed, not failed on. Remove an
 * entry once its rule holds.
 */
const stillBroken: Array<{ rule: string; kind: FindingKind; op: RegExp; status: number; request?: RegExp }> = [];
/** FUZZ_EXCUSE=off: every finding fails, to see whether a rule above holds by now. */
const excused = (f: { kind: FindingKind; op: string; status: number; request: string }) =>
  process.env.FUZZ_EXCUSE === 'off'
    ? null
    : (stillBroken.find(
        (b) => b.kind === f.kind && b.op.test(f.op) && b.status === f.status && (!b.request || b.request.test(f.request)),
      )?.rule ?? null);

let s: TestServer;
let dataDir: string;
let ops: Operation[];
let stats: FuzzStats;

beforeAll(async () => {
  const t0 = Date.now();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-fuzz-'));
  // The store in the data folder (on SQLite), so that a second server can start on both.
  s = await startServer({ dataDir }, markRoutes, {}, { databaseUrl: null, sqliteFile: path.join(dataDir, 'sunfleet.db') });
  const world = await buildWorld(s);
  ops = await operations(s.app);
  console.info(`fuzz: server and data ready in ${Date.now() - t0} ms`);
  stats = await fuzz(s, world, ops, { seed: SEED, perCaller: PER_CALLER, concurrency: 8, excused });
  console.info(`fuzz: ${stats.requests} requests in ${stats.ms} ms, by status`, stats.byStatus);
  if (Object.keys(stats.excused).length) console.warn('fuzz: findings of rules still broken', stats.excused);
}, 240_000);
afterAll(async () => {
  await s?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('API fuzz (seeded, from the contracts)', () => {
  it('covers every operation as each caller, and valid requests reach the handlers', () => {
    expect(ops.length).toBeGreaterThan(300);
    expect(stats.requests).toBeGreaterThan(ops.length * 4 * PER_CALLER);
    expect(stats.byVariant['upload-burst']).toBeGreaterThan(0);
    expect(Object.keys(stats.byOperation).sort()).toEqual(ops.map((o) => o.key).sort());
    // Not all refused at the door: a good share are answered (a success or a business code).
    expect(stats.byStatus[200] ?? 0).toBeGreaterThan(stats.requests * 0.2);
    expect(stats.succeeded).toBeGreaterThan(stats.requests * 0.05);
  });

  it('answers no request with a 5xx', () => {
    expect(
      stats.counts['server-error'],
      findingLines(stats)
        .filter((l) => l.startsWith('server-error'))
        .join('\n'),
    ).toBe(0);
  });

  it('answers every request with the envelope (a file only as a file route’s success)', () => {
    expect(
      stats.counts['not-envelope'],
      findingLines(stats)
        .filter((l) => l.startsWith('not-envelope'))
        .join('\n'),
    ).toBe(0);
  });

  it('answers every request with a status its operation documents', () => {
    expect(
      stats.counts.undocumented,
      findingLines(stats)
        .filter((l) => l.startsWith('undocumented'))
        .join('\n'),
    ).toBe(0);
  });

  it('still answers /healthz and signs in afterwards', async () => {
    const health = await s.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    await expect(s.login(demoAccounts.owner, DEMO_PASSWORD)).resolves.toMatchObject({ access: expect.any(String) });
  });

  it('over a real connection, headers or an address over the limits and a broken request line get the envelope', async () => {
    const address = await s.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const get = (url: string, headers: Record<string, string>) =>
      new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: url, headers }, (res) => {
          let body = '';
          res.on('data', (d) => {
            body += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
          res.on('error', reject);
        });
        req.on('error', reject);
      });
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(text));
        let out = '';
        socket.on('data', (d) => {
          out += d;
        });
        socket.on('end', () => resolve(out));
        socket.on('error', reject);
      });
    const answers = [
      await get('/api/v1/user', { 'x-big': 'x'.repeat(20_000) }),
      await get(`/api/v1/plants?name=${'x'.repeat(70_000)}`, {}),
    ];
    for (const line of [
      'GARBAGE\r\n\r\n',
      'GET /api/v1/user HTTP/9.9\r\nHost: x\r\n\r\n',
      'GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n',
    ]) {
      const text = await raw(line);
      const [head = '', body = ''] = text.split('\r\n\r\n');
      answers.push({
        status: Number(head.split(' ')[1]),
        type: head.match(/content-type: ([^\r\n]+)/i)?.[1] ?? '',
        body,
      });
    }
    for (const a of answers) {
      expect(a.status, a.body).toBeGreaterThanOrEqual(400);
      expect(a.status, a.body).toBeLessThan(500);
      expect(envelopeProblem(a.status, a.type, a.body, false), `HTTP ${a.status} ${a.type} ${a.body}`).toBeNull();
    }
  });

  it('a server started anew on the fuzzed store and data folder starts and answers', async () => {
    const again = await startServer({ dataDir }, undefined, {}, { databaseUrl: null, sameStoreAs: s });
    try {
      expect((await again.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      await expect(again.login(demoAccounts.companyAdmin, DEMO_PASSWORD)).resolves.toMatchObject({ access: expect.any(String) });
    } finally {
      await again.close();
    }
  });
});
