// A virtual gateway: one MQTT client speaking the real gateway protocol for one plant's
// devices. It connects with its SN and device secret (last will: offline, retained), says
// it is online, takes a reading of every device at each upload interval and publishes it
// (QoS 1), keeps readings in a buffer while offline and sends them later with their original
// timestamps, answers commands (each id once: a repeated id is answered from memory), and can
// upload days of history first (backfill). For tests, a gateway can be told to answer commands
// late, never, or to drop off the network when a command arrives (`commandQuirks`).
import {
  type CommandMessage,
  type DataMessage,
  type DeviceFrame,
  type GatewayEventMessage,
  type GatewaySettingName,
  isGatewaySn,
  mqttLimits,
  PROTOCOL_VERSION,
  type ReplyMessage,
  type StateMessage,
  topics,
} from '@sunfleet/contracts';
import { connect, type MqttClient } from 'mqtt';
import { type CommandOutcome, executeCommand, type GatewayControl, parseCommand, ReplyMemory } from './commands.ts';
import { Episodes } from './devices/faults.ts';
import {
  type CommandQuirks,
  DEFAULT_GATEWAY_SW,
  type GatewayOptions,
  type GatewaySpec,
  type GatewayStats,
} from './gateway-options.ts';
import { Plant } from './plant.ts';
import { hash32, Rng } from './random.ts';
import { nextReadingAt } from './schedule.ts';
import { Upgrader } from './upgrade.ts';
import { Wakeup, withTimeout } from './waiting.ts';

export { type CommandQuirks, DEFAULT_GATEWAY_SW, type GatewayOptions, type GatewaySpec, type GatewayStats };

type Outgoing = { channel: 'data'; body: DataMessage } | { channel: 'event'; body: GatewayEventMessage };

const DAY = 86_400_000;

export class VirtualGateway {
  readonly sn: string;
  readonly plant: Plant;
  /** Upload interval, ms (a `settings` command may change it). */
  private intervalMs: number;
  /** Keep readings while offline (a `settings` command may switch it off). */
  private bufferOffline = true;
  private readonly memory = new ReplyMemory();
  /** The software version it reports; an upgrade of the gateway changes it. */
  private sw: string;
  readonly upgrader: Upgrader;
  private quirkOfflineUsed = false;
  private commandsRun = 0;
  private ignoredCommands = 0;
  private readonly historyStepMs: number;
  private readonly window: number;
  private readonly maxBuffer: number;
  private readonly network: Episodes;
  private readonly rssi: number;
  private client: MqttClient | null = null;
  private generation = 0;
  private connected = false;
  private running = false;
  private next = 0;
  private lastReadingT: number | undefined;
  private rebootUntil = 0;
  private seq = 0;
  private publishId = 0;
  private readonly queue: Outgoing[] = [];
  private readonly inflight = new Map<number, Outgoing>();
  /** Woken by an acknowledgement or a connection. */
  private readonly progressed = new Wakeup();
  private abort = new AbortController();
  private nap: AbortController | null = null;
  private loop: Promise<void> | null = null;
  private readonly counts = { connects: 0, readings: 0, sent: 0, published: 0, events: 0, replies: 0, failed: 0, dropped: 0 };
  private lastError: string | undefined;

  constructor(
    readonly spec: GatewaySpec,
    private readonly options: GatewayOptions,
  ) {
    if (!isGatewaySn(spec.sn)) throw new Error(`gateway SN "${spec.sn}" is not valid`);
    if (spec.devices.length === 0 || spec.devices.length > mqttLimits.maxDevicesPerFrame) {
      throw new Error(`gateway ${spec.sn}: 1..${mqttLimits.maxDevicesPerFrame} devices`);
    }
    this.sn = spec.sn;
    const seed = hash32(options.seed ?? 1, spec.sn);
    this.plant = new Plant(spec.plant, spec.devices, {
      seed,
      faultRate: options.faultRate ?? 0,
      offlineRate: options.offlineRate ?? 0,
      physicsStepS: options.physicsStepS ?? Math.min(60, options.interval ?? 60),
    });
    this.intervalMs = Math.round((options.interval ?? 60) * 1000);
    const historyS = options.backfillIntervalS ?? options.interval ?? 60;
    this.historyStepMs = Math.max(1, Math.round((historyS * 1000) / this.intervalMs)) * this.intervalMs;
    this.window = Math.max(1, options.window ?? 32);
    this.maxBuffer = Math.max(1, options.maxBuffer ?? 20_000);
    const rng = new Rng(hash32(seed, 'gateway'));
    this.network = new Episodes(rng, options.offlineRate ?? 0, 5 * 60_000, 90 * 60_000);
    this.rssi = -Math.round(rng.range(48, 88));
    this.sw = spec.sw ?? DEFAULT_GATEWAY_SW;
    const upgradeRng = new Rng(hash32(seed, 'upgrades'));
    this.upgrader = new Upgrader(
      { ...options.upgrades, ...(spec.firmwareKey ? { firmwareKey: spec.firmwareKey } : {}) },
      {
        reply: (reply) => this.sendLater(reply),
        rebootInto: (version) => {
          this.sw = version;
          this.reboot((options.upgrades?.rebootMs ?? 3000) / 1000);
        },
        inverterFlashed: (sn, version) => this.plant.device(sn)?.setFirmwareVersion(version),
        // The inverter is back with its new version: a reading now says so.
        inverterBack: () => {
          if (this.connected) this.takeReading(Math.max(this.options.clock.now(), this.lastReadingT ?? 0), false);
        },
        hasDevice: (sn) => this.plant.device(sn) !== undefined,
        random: () => upgradeRng.next(),
      },
    );
  }

  /** The software version it reports. */
  get softwareVersion(): string {
    return this.sw;
  }

  /** A reply of a command that runs on (an upgrade's progress and end); kept for a repeated id once final. */
  private sendLater(reply: Omit<ReplyMessage, 'ts'>): Promise<void> {
    if (reply.status === 'ok' || reply.status === 'error') this.memory.remember(reply.id, reply);
    const client = this.client;
    if (!client || !this.connected) return Promise.resolve();
    return new Promise((resolve) => {
      client.publish(
        topics.up(this.sn, 'reply'),
        JSON.stringify({ ...reply, ts: Math.round(this.options.clock.now()) }),
        { qos: 1 },
        () => {
          this.counts.replies++;
          resolve();
        },
      );
    });
  }

  /** Reboot: the connection drops, the sequence restarts, and it is back after `delayS` (simulated). */
  private reboot(delayS: number): void {
    this.rebootUntil = this.options.clock.now() + delayS * 1000;
    this.seq = 0;
    this.dropConnection();
    this.nap?.abort();
  }

  /** Connect and start uploading (history first when backfilling). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.abort = new AbortController();
    // Readings fall on the interval grid: the next tick from now, or history from days ago.
    const now = this.options.clock.now();
    const days = this.options.backfillDays ?? 0;
    this.next =
      days > 0
        ? Math.floor(now / this.intervalMs) * this.intervalMs - Math.round(days * DAY)
        : Math.ceil(now / this.intervalMs) * this.intervalMs;
    this.connect();
    this.loop = this.run();
  }

  /** Say offline (retained), disconnect cleanly and stop. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.abort.abort();
    this.progressed.wake();
    await this.loop;
    const client = this.client;
    this.client = null;
    this.generation++;
    if (!client) return;
    if (this.connected) {
      const offline: StateMessage = { v: PROTOCOL_VERSION, online: false, ts: Math.round(this.options.clock.now()) };
      await withTimeout(
        new Promise<void>((resolve) =>
          client.publish(topics.up(this.sn, 'state'), JSON.stringify(offline), { qos: 1, retain: true }, () => resolve()),
        ),
        2000,
      );
    }
    this.connected = false;
    await withTimeout(new Promise<void>((resolve) => client.end(false, {}, () => resolve())), 2000);
    client.end(true);
  }

  /** Resolves once connected (or after `timeoutMs`, with false). */
  async whenOnline(timeoutMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.connected && this.running && Date.now() < deadline)
      await this.progressed.wait(Math.min(250, deadline - Date.now()));
    return this.connected;
  }

  /** Resolves once everything taken so far has been acknowledged (or after `timeoutMs`). */
  async whenDrained(timeoutMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while ((this.queue.length > 0 || this.inflight.size > 0) && Date.now() < deadline)
      await this.progressed.wait(Math.min(250, deadline - Date.now()));
    return this.queue.length === 0 && this.inflight.size === 0;
  }

  /** Drop off the network now for `durationMs` of simulated time (as an offline episode does). */
  goOffline(durationMs: number): void {
    this.network.start(this.options.clock.now(), durationMs);
    this.dropConnection();
  }

  get online(): boolean {
    return this.connected;
  }

  stats(): GatewayStats {
    return {
      sn: this.sn,
      online: this.connected,
      ...this.counts,
      commands: this.commandsRun,
      repeatedCommands: this.memory.repeats,
      ignoredCommands: this.ignoredCommands,
      queued: this.queue.length,
      inflight: this.inflight.size,
      seq: this.seq,
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  private async run(): Promise<void> {
    const { clock } = this.options;
    let burst = 0;
    while (this.running) {
      const now = clock.now();
      this.reconnectIfDue(now);
      if (this.next > now) {
        const wakeAt = !this.client && this.rebootUntil > now ? Math.min(this.next, this.rebootUntil) : this.next;
        await this.sleepUntil(wakeAt);
        continue;
      }
      const late = this.next < now - this.intervalMs;
      // History waits for the broker: it is only useful once it can be sent.
      if (late && (this.queue.length >= this.window || !this.connected)) {
        await this.progressed.wait(1000);
        continue;
      }
      this.takeReading(this.next, late);
      this.next = nextReadingAt(this.next, now, this.intervalMs, this.historyStepMs);
      if (late && ++burst % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private takeReading(t: number, late: boolean): void {
    const dt = this.lastReadingT === undefined ? this.intervalMs : t - this.lastReadingT;
    this.lastReadingT = t;
    if (!late && this.network.step(t, dt) && this.network.active) this.dropConnection();
    if (t < this.rebootUntil) return;
    const env = this.plant.advance(t);
    for (const change of this.plant.takeBusChanges()) {
      this.enqueue({
        channel: 'event',
        body: {
          v: PROTOCOL_VERSION,
          ts: change.t,
          code: 'rs485.timeout',
          level: 'warning',
          device: change.device.sn,
          active: change.offBus,
          text: change.offBus ? 'Device not answering on the RS-485 bus' : 'Device answering again',
        },
      });
    }
    const frames: DeviceFrame[] = [];
    for (const device of this.plant.devices) if (!device.offBus.active) frames.push(device.frame(env));
    this.counts.readings++;
    if (frames.length > 0 && !this.connected && !late && !this.bufferOffline) {
      this.counts.dropped++;
    } else if (frames.length > 0) {
      const buffered = late || !this.connected;
      const body: DataMessage = {
        v: PROTOCOL_VERSION,
        seq: this.seq++,
        ts: t,
        ...(buffered ? { buffered } : {}),
        devices: frames,
      };
      this.enqueue({ channel: 'data', body });
    }
    this.pump();
  }

  private enqueue(item: Outgoing): void {
    this.queue.push(item);
    while (this.queue.length > this.maxBuffer) {
      this.queue.shift();
      this.counts.dropped++;
    }
  }

  private connect(): void {
    const gen = ++this.generation;
    const { sn } = this;
    const will: StateMessage = { v: PROTOCOL_VERSION, online: false };
    const client = connect(this.options.url, {
      clientId: sn,
      username: sn,
      password: this.spec.secret,
      protocolVersion: this.options.protocolVersion ?? 4,
      clean: this.options.clean ?? false,
      keepalive: this.options.keepalive ?? 30,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 5000,
      connectTimeout: 10_000,
      ...(this.options.ca !== undefined ? { ca: this.options.ca } : {}),
      will: { topic: topics.up(sn, 'state'), payload: Buffer.from(JSON.stringify(will)), qos: 1, retain: true },
    });
    this.client = client;
    client.on('connect', () => {
      if (gen !== this.generation) return;
      this.connected = true;
      this.counts.connects++;
      // Subscribed before saying online: the server sends what waits for it when it reads the state.
      client.subscribe(topics.down(sn), { qos: 1 }, () => {
        if (gen === this.generation) this.publishState(client);
      });
      this.pump();
      this.progressed.wake();
    });
    client.on('close', () => {
      if (gen === this.generation) this.connected = false;
    });
    client.on('error', (error) => {
      if (this.lastError !== error.message) this.options.log?.(`gateway ${sn}: ${error.message}`);
      this.lastError = error.message;
    });
    client.on('message', (_topic, payload) => this.onCommand(client, payload));
  }

  private publishState(client: MqttClient): void {
    const state: StateMessage = {
      v: PROTOCOL_VERSION,
      online: true,
      ts: Math.round(this.options.clock.now()),
      rssi: this.rssi,
      sw: this.sw,
      hw: 'SFG-4G-B',
      comm: this.spec.comm ?? '4g',
      interval: Math.min(3600, Math.max(10, Math.round(this.intervalMs / 1000))),
    };
    client.publish(topics.up(this.sn, 'state'), JSON.stringify(state), { qos: 1, retain: true });
  }

  /** Close the connection abruptly (the broker publishes the last will); in-flight readings go back to the buffer. */
  private dropConnection(): void {
    const client = this.client;
    this.client = null;
    this.generation++;
    this.connected = false;
    const back = [...this.inflight.values()];
    this.inflight.clear();
    this.queue.unshift(...back);
    if (client) {
      client.removeAllListeners();
      client.on('error', () => {});
      client.end(true);
    }
  }

  private reconnectIfDue(now: number): void {
    if (this.client || !this.running || now < this.rebootUntil) return;
    // An offline period ends by the clock too, not only at a reading (history may be waiting).
    if (this.network.active) this.network.step(now, 0);
    if (!this.network.active) this.connect();
  }

  private pump(): void {
    const client = this.client;
    while (client && this.connected && this.inflight.size < this.window && this.queue.length > 0) {
      const item = this.queue.shift()!;
      const id = ++this.publishId;
      const gen = this.generation;
      this.inflight.set(id, item);
      this.counts.sent++;
      client.publish(topics.up(this.sn, item.channel), JSON.stringify(item.body), { qos: 1 }, (error) =>
        this.onAck(id, gen, error),
      );
    }
  }

  private onAck(id: number, gen: number, error: Error | undefined): void {
    if (gen !== this.generation) return;
    const item = this.inflight.get(id);
    if (!item) return;
    this.inflight.delete(id);
    if (error) {
      this.counts.failed++;
      this.lastError = error.message;
      if (this.running) this.queue.unshift(item);
    } else if (item.channel === 'data') this.counts.published++;
    else this.counts.events++;
    this.pump();
    this.progressed.wake();
  }

  private onCommand(client: MqttClient, payload: Buffer): void {
    const command = parseCommand(payload);
    if (!command) return;
    const quirks = this.options.commandQuirks ?? {};
    if (quirks.silent) {
      this.ignoredCommands++;
      return;
    }
    if (quirks.offlineOnCommandMs !== undefined && !this.quirkOfflineUsed && !this.memory.has(command.id)) {
      this.quirkOfflineUsed = true;
      this.ignoredCommands++;
      this.goOffline(quirks.offlineOnCommandMs);
      return;
    }
    const { outcome, repeated } = this.memory.answer(command.id, () => this.execute(command));
    const send = () => this.sendReply(client, outcome, repeated);
    if (quirks.replyDelayMs) setTimeout(send, quirks.replyDelayMs).unref();
    else send();
  }

  private execute(command: CommandMessage): CommandOutcome {
    this.commandsRun++;
    if (command.type === 'upgrade') return { reply: this.upgrader.start(command) };
    if (command.type === 'abort') return { reply: this.upgrader.abort(command) };
    return executeCommand(this.plant, command, this.control);
  }

  /** What a command may ask of this gateway itself. */
  private readonly control: GatewayControl = {
    diagnostics: (code) =>
      [
        `debug ${code}`,
        `gateway ${this.sn}: ${this.connected ? 'online' : 'offline'}, rssi ${this.rssi} dBm`,
        `upload interval ${Math.round(this.intervalMs / 1000)} s, buffer while offline ${this.bufferOffline ? 'on' : 'off'}`,
        `queued ${this.queue.length}, in flight ${this.inflight.size}, seq ${this.seq}`,
        `devices: ${this.plant.devices.map((d) => `${d.sn}${d.offBus.active ? ' (not responding)' : ''}`).join(', ')}`,
      ].join('\n'),
    setSetting: (name: GatewaySettingName, value: number) => {
      if (name === 'uploadInterval') {
        this.intervalMs = value * 1000;
        // Says the new interval (the server's offline timeout follows it).
        if (this.client && this.connected) this.publishState(this.client);
      } else this.bufferOffline = value === 1;
      return null;
    },
  };

  private sendReply(client: MqttClient, outcome: CommandOutcome, repeated: boolean): void {
    const reply = { ...outcome.reply, ts: Math.round(this.options.clock.now()) };
    client.publish(topics.up(this.sn, 'reply'), JSON.stringify(reply), { qos: 1 }, () => {
      this.counts.replies++;
      // A reboot: the connection drops, the sequence restarts, and it is back after a while.
      if (outcome.restart && !repeated && client === this.client) this.reboot(this.options.restartDelayS ?? 30);
    });
  }

  /** Sleep in simulated time; a stop or a restart cuts it short. */
  private async sleepUntil(t: number): Promise<void> {
    const nap = new AbortController();
    this.nap = nap;
    const stop = () => nap.abort();
    this.abort.signal.addEventListener('abort', stop, { once: true });
    await this.options.clock.sleepUntil(t, nap.signal);
    this.abort.signal.removeEventListener('abort', stop);
    this.nap = null;
  }
}
