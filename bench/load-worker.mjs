// The module benches' load in a worker thread, so the server under test keeps its own thread:
// `new Worker(new URL('…/bench/load-worker.mjs', import.meta.url), { workerData: { runs } })`
// posts back runLoads(runs) (bench/load.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import { runLoads } from './load.mjs';

parentPort.postMessage(await runLoads(workerData.runs));
