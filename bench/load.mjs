// A small closed-loop HTTP load generator on keep-alive sockets: `concurrency` workers each
// send the next request as soon as the last answered, for `seconds`. Loopback only.
// `urls` spreads the workers over several servers (worker i calls urls[i % n]); a request
// unanswered after `timeoutMs` is given up and counted as a timeout; a 503 is counted apart and,
// with `honourRetryAfter`, its worker waits the Retry-After seconds before its next request.
import http from 'node:http';

export async function load({
  url,
  urls = [url],
  method = 'GET',
  headers = {},
  body,
  concurrency = 16,
  seconds = 5,
  check = (status) => status === 200,
  timeoutMs = 10_000,
  honourRetryAfter = false,
}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const targets = urls.map((u) => new URL(u));
  for (const target of targets)
    if (!['127.0.0.1', 'localhost', '::1'].includes(target.hostname)) throw new Error('load only targets loopback');
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const tally = newTally();
  const end = Date.now() + seconds * 1000;
  const headersOut = {
    ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
    ...headers,
  };
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      const target = targets[i % targets.length];
      while (Date.now() < end) {
        const retryAfterS = await timedRequest(target, { method, agent, headers: headersOut }, payload, check, tally, timeoutMs);
        if (honourRetryAfter && retryAfterS > 0)
          await new Promise((r) => setTimeout(r, Math.min(retryAfterS * 1000, end - Date.now())));
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  return summary(tally, elapsed);
}

const newTally = () => ({ latencies: [], errors: 0, timeouts: 0, unavailable: 0, slowFirst: 0 });

/** The tally as figures: answers per second, latency percentiles (ms) of every answer, what failed. */
function summary(tally, elapsed) {
  const pct = percentiles(tally.latencies);
  return {
    requests: tally.latencies.length,
    errors: tally.errors,
    timeouts: tally.timeouts,
    unavailable: tally.unavailable,
    slowFirst: tally.slowFirst,
    rps: Math.round(tally.latencies.length / elapsed),
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    p999: pct(99.9),
    max: pct(100),
  };
}

// One request: its latency (ms) into `tally.latencies` once the answer is read; a status `ok`
// refuses or a failed request counted in `tally.errors` (a 503 also in `unavailable`), one
// unanswered after `timeoutMs` in `tally.timeouts`, an answer over 1 s to the first request on a
// new connection in `tally.slowFirst` (a server slow to accept connections shows there). Resolves to a 503's Retry-After seconds, else 0.
function timedRequest(url, options, payload, ok, tally, timeoutMs = 0) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    let timedOut = false;
    const req = http.request(url, options, (res) => {
      res.resume();
      res.on('end', () => {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        tally.latencies.push(ms);
        if (ms > 1000 && !req.reusedSocket) tally.slowFirst++;
        if (!ok(res.statusCode)) tally.errors++;
        if (res.statusCode === 503) {
          tally.unavailable++;
          resolve(Number(res.headers['retry-after']) || 0);
        } else resolve(0);
      });
      res.on('error', () => {});
    });
    if (timeoutMs > 0)
      req.setTimeout(timeoutMs, () => {
        timedOut = true;
        req.destroy(new Error('timeout'));
      });
    req.on('error', () => {
      if (timedOut) tally.timeouts++;
      else tally.errors++;
      resolve(0);
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
  const tally = newTally();
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

// Runs one after another, each closed loop (`thinkMs` 0) or paced: [{ url (or urls), headers,
// concurrency, seconds, thinkMs, timeoutMs, honourRetryAfter, …}] → the same objects with `result`. bench/load-worker.mjs runs it in a worker.
export async function runLoads(runs) {
  const out = [];
  for (const s of runs) {
    const result = s.thinkMs
      ? await paced({ url: s.url, headers: s.headers, clients: s.concurrency, seconds: s.seconds, thinkMs: s.thinkMs })
      : await load({
          url: s.url,
          urls: s.urls,
          headers: s.headers,
          concurrency: s.concurrency,
          seconds: s.seconds,
          timeoutMs: s.timeoutMs,
          honourRetryAfter: s.honourRetryAfter,
        });
    out.push({ ...s, result });
  }
  return out;
}
