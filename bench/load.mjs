// A small closed-loop HTTP load generator on keep-alive sockets: `concurrency` workers each
// send the next request as soon as the last answered, for `seconds`. Loopback only.
import http from 'node:http';

export async function load({
  url,
  method = 'GET',
  headers = {},
  body,
  concurrency = 16,
  seconds = 5,
  check = (status) => status === 200,
}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  if (!['127.0.0.1', 'localhost', '::1'].includes(target.hostname)) throw new Error('load only targets loopback');
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const tally = { latencies: [], errors: 0 };
  const end = Date.now() + seconds * 1000;
  const headersOut = {
    ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
    ...headers,
  };
  const one = () => timedRequest(target, { method, agent, headers: headersOut }, payload, check, tally);
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) await one();
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  const pct = percentiles(tally.latencies);
  return {
    requests: tally.latencies.length,
    errors: tally.errors,
    rps: Math.round(tally.latencies.length / elapsed),
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    max: pct(100),
  };
}

// One request: its latency (ms) into `tally.latencies` once the answer is read; a status `ok`
// refuses or a failed request counted in `tally.errors`.
function timedRequest(url, options, payload, ok, tally) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const req = http.request(url, options, (res) => {
      res.resume();
      res.on('end', () => {
        tally.latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (!ok(res.statusCode)) tally.errors++;
        resolve();
      });
    });
    req.on('error', () => {
      tally.errors++;
      resolve();
    });
    if (payload) req.write(payload);
    req.end();
  });
}

// The latencies sorted in place; p → the p-th percentile, ms to two decimals (0 without any).
function percentiles(latencies) {
  latencies.sort((a, b) => a - b);
  return (p) => +(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0).toFixed(2);
}

// Paced: `clients` each send one request, then think `thinkMs` on average (exponentially
// distributed) before the next, as people with a page open do; they start spread over `thinkMs`.
export async function paced({ url, headers = {}, clients, seconds, thinkMs }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const tally = { latencies: [], errors: 0 };
  const end = Date.now() + seconds * 1000;
  const one = () => timedRequest(url, { agent, headers }, undefined, (status) => status === 200, tally);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  await Promise.all(
    Array.from({ length: clients }, async () => {
      await sleep(Math.random() * thinkMs);
      while (Date.now() < end) {
        await one();
        await sleep(-Math.log(1 - Math.random()) * thinkMs);
      }
    }),
  );
  agent.destroy();
  const pct = percentiles(tally.latencies);
  return {
    requests: tally.latencies.length,
    errors: tally.errors,
    rps: Math.round(tally.latencies.length / seconds),
    p50: pct(50),
    p99: pct(99),
    max: pct(100),
  };
}

// Runs one after another, each closed loop (`thinkMs` 0) or paced: [{ url, headers, concurrency,
// seconds, thinkMs, …}] → the same objects with `result`. bench/load-worker.mjs runs it in a worker.
export async function runLoads(runs) {
  const out = [];
  for (const s of runs) {
    const result = s.thinkMs
      ? await paced({ url: s.url, headers: s.headers, clients: s.concurrency, seconds: s.seconds, thinkMs: s.thinkMs })
      : await load({ url: s.url, headers: s.headers, concurrency: s.concurrency, seconds: s.seconds });
    out.push({ ...s, result });
  }
  return out;
}
