/**
 * A command channel for module tests that runs every command on simulated devices: the
 * simulator's own command execution (`executeCommand`) on its virtual devices' register banks,
 * so reads and writes round-trip through the real protocol encoders and the register map a
 * simulated gateway answers with. It keeps the jobs in memory (the real channel's store and MQTT
 * are the commands module's tests).
 *
 * - `attach(gatewaySn, plant)`: the gateway's devices answer from then on;
 * - `hold()`: commands are sent but not answered until `release()` (a slow gateway);
 * - `tamper`: runs after a command executed, may change the device (a device that ignores a write);
 * - `unanswered`: commands it picks get no answer and end `timed_out`, as the channel's timeout ends them;
 * - `sent`: every command message sent, in order.
 */
import { randomUUID } from 'node:crypto';
import { type CommandMessage, PROTOCOL_VERSION, type ReplyMessage } from '@sunfleet/contracts';
import { executeCommand } from '../../simulator/src/commands.ts';
import type { DeviceSpec } from '../../simulator/src/plant.ts';
import { Plant } from '../../simulator/src/plant.ts';
import type { CommandChannel, CommandJob, SubmitCommand } from '../src/commands/channel.ts';

export class SimulatedChannel implements CommandChannel {
  readonly sent: CommandMessage[] = [];
  tamper: ((plant: Plant, message: CommandMessage) => void) | undefined;
  unanswered: ((message: CommandMessage) => boolean) | undefined;
  private readonly plants = new Map<string, Plant>();
  private readonly jobs = new Map<string, CommandJob>();
  private readonly waiting = new Set<() => void>();
  private held: Array<() => void> | null = null;

  attach(gatewaySn: string, plant: Plant): void {
    this.plants.set(gatewaySn, plant);
  }

  hold(): void {
    this.held ??= [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const run of held) run();
  }

  /** Commands sent to a device. */
  sentTo(deviceSn: string, type?: CommandMessage['type']): CommandMessage[] {
    return this.sent.filter((m) => m.device === deviceSn && (type === undefined || m.type === type));
  }

  async submit(command: SubmitCommand): Promise<CommandJob> {
    const job: CommandJob = {
      id: randomUUID(),
      gatewaySn: command.gatewaySn,
      deviceSn: command.deviceSn ?? null,
      batchId: command.batchId ?? null,
      state: 'queued',
      body: command.body,
      reply: null,
      error: null,
      requestedBy: command.requestedBy,
      progress: null,
      stage: null,
      createdAt: Date.now(),
      sentAt: null,
      finishedAt: null,
    };
    this.jobs.set(job.id, job);
    const plant = this.plants.get(command.gatewaySn);
    if (!plant) return { ...job };
    const message = { v: PROTOCOL_VERSION, id: job.id, ts: Date.now(), ...command.body } as CommandMessage;
    this.sent.push(message);
    job.state = 'sent';
    job.sentAt = Date.now();
    if (this.unanswered?.(message)) {
      job.state = 'timed_out';
      job.error = 'timed out';
      job.finishedAt = Date.now();
      return { ...job };
    }
    const execute = () => {
      const outcome = executeCommand(plant, message);
      this.tamper?.(plant, message);
      this.finish(job, { ...outcome.reply, ts: Date.now() });
    };
    if (this.held) this.held.push(execute);
    else execute();
    return { ...job };
  }

  private finish(job: CommandJob, reply: ReplyMessage) {
    job.reply = reply;
    job.state = reply.status === 'ok' ? 'succeeded' : 'failed';
    job.error = reply.status === 'error' ? (reply.error ?? 'error') : null;
    job.finishedAt = Date.now();
    for (const wake of this.waiting) wake();
  }

  async settle(jobId: string, maxWaitMs = 5_000): Promise<CommandJob> {
    const until = Date.now() + maxWaitMs;
    for (;;) {
      const job = this.jobs.get(jobId);
      if (!job) throw new Error(`no job ${jobId}`);
      if (['succeeded', 'failed', 'timed_out', 'cancelled', 'expired'].includes(job.state) || Date.now() >= until)
        return { ...job };
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiting.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, Math.max(1, until - Date.now()));
        this.waiting.add(wake);
      });
    }
  }

  async run(command: SubmitCommand, maxWaitMs?: number): Promise<CommandJob> {
    return this.settle((await this.submit(command)).id, maxWaitMs);
  }

  async cancel(jobId: string): Promise<CommandJob> {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    if (job.state === 'queued') {
      job.state = 'cancelled';
      job.finishedAt = Date.now();
      for (const wake of this.waiting) wake();
    }
    return { ...job };
  }

  /** A gateway with a simulated plant attached answers; the settings module reads presence from the store. */
  async isOnline(gatewaySn: string): Promise<boolean> {
    return this.plants.has(gatewaySn);
  }

  async get(jobId: string): Promise<CommandJob | undefined> {
    const job = this.jobs.get(jobId);
    return job ? { ...job } : undefined;
  }
}

/** A simulated plant in Madrid with these devices. */
export function simPlant(devices: DeviceSpec[], capacityKw = 6): Plant {
  return new Plant({ lat: 40.42, lon: -3.7, timezone: 'Europe/Madrid', capacityKw, type: 'dc' }, devices, { seed: 7 });
}

/** A simulated plant of hybrid inverters (single-phase unless said), one per SN, on units 1, 2, … */
export function hybridPlant(sns: readonly string[], phases: 1 | 3 = 1): Plant {
  const devices: DeviceSpec[] = sns.map((sn, i) => ({ kind: 'hybrid', sn, unit: i + 1, phases, ratedW: 5000, pvKwp: 6 }));
  return simPlant(devices, 6 * sns.length);
}
