import path from 'node:path';
import type { KyselyPlugin } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { addDevice, addEvent, HYBRID, type Site, site } from '../../../test/kits/events.ts';
import { type Account, account } from '../../../test/kits/plants.ts';
import { createMailer, type Mailer } from '../../mail/mailer.ts';
import { type EventNotifier, startEventNotifier } from './notifier.ts';

let s: TestServer;
let mailer: Mailer;
let a: Site;
let b: Site;
let visitor: Account;
let stranger: Account;
let clock = Date.now();
const HOUR = 3_600_000;
const OWNER_MAIL = 'alarms.owner@example.com';

const notifier = (extra: Partial<Parameters<typeof startEventNotifier>[0]> = {}): EventNotifier =>
  startEventNotifier({ db: s.db, mailer, intervalMs: 3_600_000, graceMs: 0, now: () => Math.max(clock, Date.now()), ...extra });
const mailsTo = (to: string) => s.smtp.messages.filter((m) => m.to.includes(to.toLowerCase()));
const enable = (userId: number, language: string, email: string | null = null) =>
  s.db.updateTable('users').set({ notify_enabled: 1, notify_email: email, language }).where('id', '=', userId).execute();
const fault = (
  site: Site,
  device: { id: number; sn: string },
  code: string,
  extra: Partial<Parameters<typeof addEvent>[1]> = {},
) =>
  addEvent(s, {
    plantId: site.plantId,
    sn: device.sn,
    deviceId: device.id,
    gatewayId: site.gatewayId,
    code,
    level: 'fault',
    ...extra,
  });
/** The body of a received mail, quoted-printable undone. */
const body = (raw: string) =>
  Buffer.from(
    raw
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join('\n')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

beforeAll(async () => {
  s = await startServer();
  mailer = createMailer({
    smtpUrl: s.smtp.url,
    from: 'Sunfleet <no-reply@sunfleet.test>',
    outboxDir: path.join(s.config.dataDir, 'outbox'),
    log: pino({ level: 'silent' }),
  });
  a = await site(s, { timezone: 'Europe/Madrid' });
  b = await site(s);
  visitor = await account(s);
  stranger = await account(s);
  await s.db
    .insertInto('plant_shares')
    .values({ plant_id: a.plantId, user_id: visitor.id, role: 'visitor', created_at: Date.now() })
    .execute();
  await enable(a.owner.id, 'es', OWNER_MAIL);
  await enable(visitor.id, 'en');
  await enable(stranger.id, 'en');
  // b's owner sees plant b but has notifications off.
});
afterAll(async () => {
  mailer.close();
  await s.close();
});

describe('fault notifications', () => {
  it('mails nothing about faults raised before it first ran', async () => {
    await fault(a, a.inverter, 'relayFailure');
    const n = notifier();
    const run = await n.runOnce();
    await n.stop();
    expect(run.mailed).toBe(0);
    expect(s.smtp.messages).toHaveLength(0);
  });

  it('mails each user who enabled notifications and sees the plant, once, in their language and address', async () => {
    const n = notifier();
    const id = await fault(a, a.inverter, 'gridOvervoltage');
    await addEvent(s, { plantId: a.plantId, sn: a.inverter.sn, deviceId: a.inverter.id, code: 'fanWarning', level: 'warning' });
    await fault(b, b.inverter, 'gridOvervoltage');
    const run = await n.runOnce();
    expect(run).toMatchObject({ events: 2, mailed: 2 });
    const [owner] = mailsTo(OWNER_MAIL);
    expect(mailsTo(OWNER_MAIL)).toHaveLength(1);
    expect(mailsTo(a.owner.account)).toHaveLength(0);
    const plantName = (await s.db.selectFrom('plants').select('name').where('id', '=', a.plantId).executeTakeFirstOrThrow()).name;
    expect(owner!.subject).toBe(`Sunfleet: fallo en ${plantName}: Sobretensión de red`);
    const text = body(owner!.raw);
    expect(text).toContain(`inverter alias (${a.inverter.sn})`);
    expect(text).toContain('[gridOvervoltage]');
    expect(text).toMatch(/\(Europe\/Madrid\)/);
    expect(text).toMatch(/Acción sugerida: La tensión de red supera el límite/);
    const [seen] = mailsTo(visitor.account);
    expect(seen!.subject).toBe(`Sunfleet: fault at ${plantName}: Grid overvoltage`);
    expect(mailsTo(stranger.account)).toHaveLength(0);
    expect(mailsTo(b.owner.account)).toHaveLength(0);
    // Persisted: a second poll, or a new notifier after a restart, sends nothing again.
    expect((await n.runOnce()).mailed).toBe(0);
    await n.stop();
    const restarted = notifier();
    expect((await restarted.runOnce()).mailed).toBe(0);
    await restarted.stop();
    expect(mailsTo(OWNER_MAIL)).toHaveLength(1);
    const logged = await s.db
      .selectFrom('event_notifications')
      .select(['user_id', 'state'])
      .where('event_id', '=', id)
      .orderBy('user_id')
      .execute();
    expect(logged).toEqual(
      [
        { user_id: a.owner.id, state: 'sent' },
        { user_id: visitor.id, state: 'sent' },
      ].sort((x, y) => x.user_id - y.user_id),
    );
  });

  it('mails a flapping device’s fault once within 6 hours, and again after', async () => {
    const n = notifier();
    const before = mailsTo(visitor.account).length;
    for (let i = 0; i < 5; i++) {
      const t = Date.now();
      await fault(a, a.battery, 'pack1.shortCircuit', { startedAt: t, endedAt: t + 1000 });
      await n.runOnce();
    }
    expect(mailsTo(visitor.account).length - before).toBe(1);
    clock += 6 * HOUR + 60_000;
    await fault(a, a.battery, 'pack1.shortCircuit', { startedAt: Date.now(), endedAt: Date.now() + 1 });
    const run = await n.runOnce();
    expect(run.mailed).toBe(2);
    expect(mailsTo(visitor.account).length - before).toBe(2);
    await n.stop();
  });

  it('sends at most 10 mails an hour per user, then one digest of the rest when the hour has room', async () => {
    clock += 2 * HOUR; // a fresh hour for everyone
    const n = notifier();
    const start = mailsTo(visitor.account).length;
    const devices = [];
    for (let i = 0; i < 14; i++) devices.push(await addDevice(s, a.gatewayId, a.plantId, 'inverter', HYBRID));
    for (const d of devices) await fault(a, d, 'arcFault');
    let run = await n.runOnce();
    expect(run).toMatchObject({ events: 14, held: 8 });
    expect(mailsTo(visitor.account).length - start).toBe(10);
    expect(mailsTo(OWNER_MAIL).length).toBeGreaterThan(0);
    // Still inside the hour: more faults are held, no digest yet.
    clock += 30 * 60_000;
    await fault(a, devices[0]!, 'islanding');
    run = await n.runOnce();
    expect(run.digests).toBe(0);
    expect(mailsTo(visitor.account).length - start).toBe(10);
    // The hour has passed: one digest of the 5 held faults to each recipient.
    clock += 31 * 60_000;
    run = await n.runOnce();
    expect(run.digests).toBe(2);
    const visitorMails = mailsTo(visitor.account);
    expect(visitorMails.length - start).toBe(11);
    const digest = visitorMails[visitorMails.length - 1]!;
    expect(digest.subject).toBe('Sunfleet: 5 more faults on your plants');
    const text = body(digest.raw);
    expect(text).toContain('at most 10 alarm mails an hour');
    expect(text.match(/^- /gm)).toHaveLength(5);
    expect(text).toContain('[islanding]');
    const ownerDigest = mailsTo(OWNER_MAIL).at(-1)!;
    expect(ownerDigest.subject).toBe('Sunfleet: 5 fallos más en sus plantas');
    // Nothing is held any more, and nothing goes twice.
    expect((await n.runOnce()).digests).toBe(0);
    const held = await s.db.selectFrom('event_notifications').select('id').where('state', '=', 'held').execute();
    expect(held).toHaveLength(0);
    await n.stop();
  });

  it('stops mailing a user who turns notifications off', async () => {
    clock += 2 * HOUR;
    const n = notifier();
    await s.db.updateTable('users').set({ notify_enabled: 0 }).where('id', '=', visitor.id).execute();
    const before = mailsTo(visitor.account).length;
    await fault(a, a.inverter, 'eepromFailure');
    await n.runOnce();
    expect(mailsTo(visitor.account).length).toBe(before);
    await n.stop();
  });

  it('never mails twice when the store connection is lost right after a mail went out', async () => {
    clock += 7 * HOUR;
    let cutOnce = true;
    // The connection ends under the statement that records the mail as sent; the next ones reconnect.
    const cut: KyselyPlugin = {
      transformQuery: (args) => {
        if (cutOnce && args.node.kind === 'UpdateQueryNode' && JSON.stringify(args.node).includes('"sent"')) {
          cutOnce = false;
          throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const n = notifier({ db: s.db.withPlugin(cut) });
    const before = mailsTo(OWNER_MAIL).length;
    await fault(a, a.inverter, 'islanding');
    await n.runOnce().catch(() => undefined);
    expect(cutOnce).toBe(false);
    for (let i = 0; i < 3; i++) await n.runOnce();
    expect(mailsTo(OWNER_MAIL).length - before).toBe(1);
    await n.stop();
  });
});
