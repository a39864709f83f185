/**
 * The command channel as the tests run it: the test server's channel (`deps.commands`) sending
 * through an embedded broker whose replies and presence are routed to it, as main.ts wires them;
 * a second "process" (another channel and broker over the same store) for restarts; and a test
 * gateway over MQTT that answers commands as the protocol asks (each id run once, a repeated id
 * answered from memory) or misbehaves on purpose.
 */
import type { CommandMessage, ReplyMessage } from '@sunfleet/contracts';
import { topics } from '@sunfleet/contracts';
import type { MqttClient } from 'mqtt';
import pino from 'pino';
import { type CommandService, createCommandChannel } from '../src/commands/service.ts';
import type { Config } from '../src/config.ts';
import { silentLogger } from '../src/log.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../src/telemetry/broker/embedded.ts';
import { createIngest, type Ingest } from '../src/telemetry/ingest/index.ts';
import { commandPresence, routeReplies } from '../src/telemetry/start.ts';
import { startServer, type TestServer } from './harness.ts';
import { connectGateway, waitFor } from './mqtt.ts';

export interface CommandProcess {
  commands: CommandService;
  broker: EmbeddedBroker;
  ingest: Ingest;
  /** Stop as a server process stops: broker, channel and ingest (jobs stay in the store). */
  stop(): Promise<void>;
}

/** A channel with an embedded broker on a free port, wired like the ingest role of main.ts. */
export async function commandProcess(s: TestServer, commands?: CommandService): Promise<CommandProcess> {
  const channel =
    commands ?? createCommandChannel({ db: s.db, dialect: s.store.dialect, log: silentLogger, defaults: s.config.commands });
  const ingest = createIngest({ db: s.db, dialect: s.store.dialect, log: silentLogger, flushMs: 20 });
  const log = pino({ level: 'silent' });
  const broker = await startEmbeddedBroker({
    db: s.db,
    log,
    handler: routeReplies(ingest, channel),
    port: 0,
    host: '127.0.0.1',
    serverCredentials: { username: 'sunfleet.server', password: 'server-secret-for-tests' },
    rateLimit: false,
    presence: { flushMs: 20, ...commandPresence(channel, log) },
  });
  channel.attach(
    (topic, payload, o) => broker.publish(topic, payload, o),
    (sn) => broker.isConnected(sn),
  );
  return {
    commands: channel,
    broker,
    ingest,
    async stop() {
      await broker.close();
      await channel.close();
      await ingest.close();
    },
  };
}

export interface CommandRig extends CommandProcess {
  s: TestServer;
  close(): Promise<void>;
}

/** A test server whose `deps.commands` sends through its own embedded broker. */
export async function commandRig(commands: Partial<Config['commands']> = {}): Promise<CommandRig> {
  const base = { timeoutMs: 2000, expiryMs: 60_000, resendMs: 60_000, retentionDays: 180 };
  const s = await startServer({ commands: { ...base, ...commands } });
  const p = await commandProcess(s, s.app.deps.commands as CommandService);
  return {
    ...p,
    s,
    async close() {
      await p.stop();
      await s.close();
    },
  };
}

export type GatewayBehaviour = 'answer' | 'silent' | 'acceptOnly' | 'loseFirstReply';

/**
 * A gateway over MQTT: subscribes to its commands, then says it is online; answers each command
 * with `respond` (default ok), runs each id once and answers a repeated one from memory.
 */
export class TestGateway {
  client: MqttClient | null = null;
  /** Every command received, in order (repeats included). */
  readonly received: CommandMessage[] = [];
  /** Times each id was run (never more than once when the gateway keeps its memory). */
  readonly runs = new Map<string, number>();
  readonly #memory = new Map<string, Omit<ReplyMessage, 'v' | 'id' | 'ts'>>();
  behaviour: GatewayBehaviour = 'answer';
  respond: (c: CommandMessage) => Omit<ReplyMessage, 'v' | 'id' | 'ts'> = () => ({ status: 'ok' });
  #lost = false;

  constructor(
    readonly sn: string,
    readonly secret: string,
  ) {}

  async connect(port: number): Promise<void> {
    const client = await connectGateway(port, this.sn, this.secret, { reconnectPeriod: 0 });
    this.client = client;
    client.on('message', (_t, payload) => this.#onCommand(JSON.parse(payload.toString()) as CommandMessage));
    await client.subscribeAsync(topics.down(this.sn), { qos: 1 });
    await client.publishAsync(topics.up(this.sn, 'state'), JSON.stringify({ v: 1, online: true, interval: 60 }), {
      qos: 1,
      retain: true,
    });
  }

  /** Drop the connection (the broker's last will says offline). */
  async disconnect(): Promise<void> {
    await this.client?.endAsync(true);
    this.client = null;
  }

  /** Publish a reply as this gateway (also a forged one for another gateway's job). */
  async reply(id: string, body: Omit<ReplyMessage, 'v' | 'id' | 'ts'>): Promise<void> {
    await this.client!.publishAsync(topics.up(this.sn, 'reply'), JSON.stringify({ v: 1, id, ts: Date.now(), ...body }), {
      qos: 1,
    });
  }

  /** Resolves once `n` commands have arrived. */
  async receivedCount(n: number, timeoutMs = 5000): Promise<CommandMessage[]> {
    await waitFor(() => this.received.length >= n, timeoutMs, `${n} commands at ${this.sn}`);
    return this.received;
  }

  #onCommand(command: CommandMessage): void {
    this.received.push(command);
    if (this.behaviour === 'silent') return;
    let answer = this.#memory.get(command.id);
    if (!answer) {
      this.runs.set(command.id, (this.runs.get(command.id) ?? 0) + 1);
      answer = this.behaviour === 'acceptOnly' ? { status: 'accepted' } : this.respond(command);
      this.#memory.set(command.id, answer);
      // The reply is lost on the way (the server went down before it arrived).
      if (this.behaviour === 'loseFirstReply' && !this.#lost) {
        this.#lost = true;
        return;
      }
    }
    void this.reply(command.id, answer).catch(() => {});
  }
}
