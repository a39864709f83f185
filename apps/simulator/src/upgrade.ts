// A gateway's firmware upgrades (docs/protocol.md, "Firmware upgrades"): download the image over
// HTTP from the command's link (resuming with a Range request where a download broke off), check
// its size, SHA-256 and the server's Ed25519 signature against the public key the gateway was
// provisioned with, "flash" it (on itself, or on an inverter over the bus), and report each stage
// as `progress` replies, then `ok` and a reboot (the gateway) or the new version in the inverter's
// registers, or `error` with the stage and the reason. An `abort` stops a download or its check;
// a flash under way finishes. For tests and benchmarks: a share of flashes fail, links can be
// slow, and a download can break off once after some bytes.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { type CommandMessage, PROTOCOL_VERSION, type ReplyMessage, type UpgradeFirmwareMessage } from '@sunfleet/contracts';

export interface UpgradeOptions {
  /** The server's firmware public key: raw Ed25519, base64 (from provisioning). */
  firmwareKey?: string;
  /** Share of flashes that fail (0–1, default 0). */
  failureRate?: number;
  /** Download speed, bytes per second (default: as fast as the link goes). */
  bytesPerSecond?: number;
  /** Break each download off once after this many bytes (it resumes with a Range request). */
  interruptAfterBytes?: number;
  /** Wall ms a flash takes (default 300). */
  flashMs?: number;
  /** Wall ms the gateway stays away rebooting after its own upgrade (default 3000). */
  rebootMs?: number;
}

export interface UpgradeHooks {
  /** Publish a reply; resolves once it is out. */
  reply(reply: Omit<ReplyMessage, 'ts'>): Promise<void>;
  /** The gateway's own image is flashed: reboot into `version`. */
  rebootInto(version: string): void;
  /** An inverter's image is flashed: its registers say `version` from now on. */
  inverterFlashed(sn: string, version: string): void;
  /** The inverter is back after its `ok`: report it now. */
  inverterBack(sn: string): void;
  /** Whether the gateway has this inverter on its bus. */
  hasDevice(sn: string): boolean;
  random(): number;
}

type Stage = 'download' | 'verify' | 'flash';
interface Running {
  stage: Stage;
  abort: AbortController;
  /** The device being upgraded ('' for the gateway itself). */
  target: string;
}

/** Retries of a download that breaks off, each resuming where it stopped. */
const DOWNLOAD_ATTEMPTS = 4;
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

class Cancelled extends Error {}

export class Upgrader {
  readonly #running = new Map<string, Running>();
  /** Upgrades that ended, per stage and outcome (the benchmark reads them). */
  readonly counts = { started: 0, succeeded: 0, failed: 0, cancelled: 0, resumed: 0, bytes: 0 };

  constructor(
    private readonly options: UpgradeOptions,
    private readonly hooks: UpgradeHooks,
  ) {}

  get busy(): boolean {
    return this.#running.size > 0;
  }

  /** An `upgrade` command: `accepted` now, the rest as it goes. */
  start(command: CommandMessage): Omit<ReplyMessage, 'ts'> {
    const base = { v: PROTOCOL_VERSION, id: command.id } as const;
    const fw = command.firmware as UpgradeFirmwareMessage | undefined;
    if (!fw || typeof fw.url !== 'string' || typeof fw.sha256 !== 'string')
      return { ...base, status: 'error', error: 'no firmware in the command' };
    if (command.device !== undefined && !this.hooks.hasDevice(command.device))
      return { ...base, status: 'error', error: 'unknown device' };
    // One upgrade per device at a time (the gateway's own counts as one for every device).
    const target = command.device ?? '';
    const clash = [...this.#running.values()].some((r) => r.target === target || r.target === '' || target === '');
    if (clash) return { ...base, status: 'error', error: 'an upgrade is running' };
    const running: Running = { stage: 'download', abort: new AbortController(), target };
    this.#running.set(command.id, running);
    this.counts.started++;
    void this.#run(command.id, command.device, fw, running).finally(() => this.#running.delete(command.id));
    return { ...base, status: 'accepted' };
  }

  /** An `abort` command for upgrade `target`. */
  abort(command: CommandMessage): Omit<ReplyMessage, 'ts'> {
    const base = { v: PROTOCOL_VERSION, id: command.id } as const;
    const running = command.target ? this.#running.get(command.target) : undefined;
    if (!running) return { ...base, status: 'error', error: 'no such upgrade running' };
    if (running.stage === 'flash') return { ...base, status: 'error', error: 'already flashing' };
    running.abort.abort();
    return { ...base, status: 'ok' };
  }

  async #run(id: string, device: string | undefined, fw: UpgradeFirmwareMessage, running: Running): Promise<void> {
    const send = (r: Omit<ReplyMessage, 'v' | 'id' | 'ts'>) => this.hooks.reply({ v: PROTOCOL_VERSION, id, ...r });
    const failed = (stage: Stage, error: string) => {
      this.counts[error === 'cancelled' ? 'cancelled' : 'failed']++;
      void send({ status: 'error', stage, error });
    };
    let digest: string;
    try {
      digest = await this.#download(
        fw,
        running.abort.signal,
        (p) => void send({ status: 'progress', stage: 'download', progress: p }),
      );
    } catch (err) {
      failed('download', err instanceof Cancelled ? 'cancelled' : (err as Error).message.slice(0, 200));
      return;
    }
    running.stage = 'verify';
    void send({ status: 'progress', stage: 'verify', progress: 100 });
    const problem = this.#check(fw, digest);
    if (running.abort.signal.aborted) return failed('download', 'cancelled');
    if (problem) return failed('verify', problem);
    running.stage = 'flash';
    const flashMs = this.options.flashMs ?? 300;
    for (const p of [0, 50]) {
      void send({ status: 'progress', stage: 'flash', progress: p });
      await sleep(flashMs / 2);
    }
    if (this.hooks.random() < (this.options.failureRate ?? 0)) return failed('flash', 'flash write error');
    this.counts.succeeded++;
    // An inverter runs the new image once flashed (its registers say so from now on); the
    // gateway reboots into its own once the `ok` is out.
    if (device !== undefined) this.hooks.inverterFlashed(device, fw.version);
    await send({ status: 'ok' });
    if (device === undefined) this.hooks.rebootInto(fw.version);
    else this.hooks.inverterBack(device);
  }

  /** Size, hash and signature of the downloaded image; the reason when one is wrong. */
  #check(fw: UpgradeFirmwareMessage, digest: string): string | null {
    const [hash, size] = digest.split(':') as [string, string];
    if (Number(size) !== fw.size) return `size mismatch: ${size} bytes, ${fw.size} expected`;
    if (hash !== fw.sha256) return 'sha256 mismatch';
    if (!this.options.firmwareKey) return 'no firmware key provisioned';
    try {
      const key = createPublicKey({
        key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(this.options.firmwareKey, 'base64').toString('base64url') },
        format: 'jwk',
      });
      if (!verify(null, Buffer.from(fw.sha256, 'hex'), key, Buffer.from(fw.signature, 'base64'))) return 'bad signature';
    } catch {
      return 'bad signature';
    }
    return null;
  }

  /** Fetch the image, resuming after a break; returns `sha256hex:size` of what arrived. */
  async #download(fw: UpgradeFirmwareMessage, signal: AbortSignal, progress: (percent: number) => void): Promise<string> {
    const hash = createHash('sha256');
    let got = 0;
    let lastPercent = 0;
    let interrupted = false;
    progress(0);
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) throw new Cancelled();
      let res: Response;
      try {
        res = await fetch(fw.url, { headers: got > 0 ? { range: `bytes=${got}-` } : {}, signal });
      } catch (err) {
        if (signal.aborted) throw new Cancelled();
        if (attempt + 1 >= DOWNLOAD_ATTEMPTS) throw new Error(`download failed: ${(err as Error).message}`);
        await sleep(200 * (attempt + 1), signal);
        continue;
      }
      if (got > 0 && res.status !== 206) {
        await res.body?.cancel();
        throw new Error(`HTTP ${res.status} on resume`);
      }
      if (res.status !== 200 && res.status !== 206) {
        await res.body?.cancel();
        throw new Error(`HTTP ${res.status}`);
      }
      if (got > 0) this.counts.resumed++;
      const reader = res.body!.getReader();
      const started = Date.now();
      let gotHere = 0;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          hash.update(value);
          got += value.length;
          gotHere += value.length;
          this.counts.bytes += value.length;
          const percent = Math.floor((got * 100) / fw.size);
          if (percent >= lastPercent + 10) {
            lastPercent = percent - (percent % 10);
            progress(Math.min(100, lastPercent));
          }
          if (this.options.bytesPerSecond) {
            const due = started + (gotHere * 1000) / this.options.bytesPerSecond;
            if (due > Date.now()) await sleep(due - Date.now(), signal);
          }
          if (signal.aborted) throw new Cancelled();
          const cut = this.options.interruptAfterBytes;
          if (cut !== undefined && !interrupted && got >= cut && got < fw.size) {
            interrupted = true;
            await reader.cancel();
            throw new Error('link dropped');
          }
        }
        return `${hash.digest('hex')}:${got}`;
      } catch (err) {
        if (err instanceof Cancelled || signal.aborted) throw new Cancelled();
        if (attempt + 1 >= DOWNLOAD_ATTEMPTS) throw new Error(`download failed: ${(err as Error).message}`);
      }
    }
  }
}
