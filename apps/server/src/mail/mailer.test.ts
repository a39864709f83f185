/** Mail through SMTP (SMTP_URL) or, without it, to the outbox folder and the log. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ErrorCode } from '@sunfleet/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../../test/account.ts';
import { startServer, type TestServer, uniqueAccount } from '../../test/harness.ts';
import { startSmtp } from '../../test/smtp.ts';
import { createMailer } from './mailer.ts';
import { codeMail } from './templates.ts';

/** A pino logger whose lines land in an array. */
function captureLog() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

describe('mailer', () => {
  it('without SMTP_URL writes each mail as an .eml file in the outbox and logs where', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-outbox-'));
    const { log, lines } = captureLog();
    const mailer = createMailer({
      smtpUrl: null,
      from: 'Sunfleet <no-reply@sunfleet.local>',
      outboxDir: path.join(dir, 'outbox'),
      log,
    });
    try {
      await mailer.send(codeMail('ana@example.com', '482913', 'reset', 'en'));
      const files = fs.readdirSync(path.join(dir, 'outbox'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const eml = fs.readFileSync(path.join(dir, 'outbox', files[0]!), 'utf8');
      expect(eml).toMatch(/^To: ana@example\.com$/m);
      expect(eml).toMatch(/^From: Sunfleet <no-reply@sunfleet\.local>$/m);
      expect(eml).toContain('Subject: Your Sunfleet verification code: 482913');
      expect(eml).toContain('Your verification code is 482913.');
      const line = lines.find((l) => l.msg === 'mail written to outbox (no SMTP_URL)');
      expect(line).toMatchObject({ to: 'ana@example.com', file: path.join(dir, 'outbox', files[0]!) });
    } finally {
      mailer.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with SMTP_URL delivers through the server and keeps the code out of the log', async () => {
    const smtp = await startSmtp();
    const { log, lines } = captureLog();
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'Sunfleet <no-reply@sunfleet.local>',
      outboxDir: '/nonexistent',
      log,
    });
    try {
      const next = smtp.waitFor('bob@example.com');
      await mailer.send(codeMail('bob@example.com', '730155', 'signup', 'es'));
      const mail = await next;
      expect(mail.subject).toBe('Su código de verificación de Sunfleet: 730155');
      expect(lines.find((l) => l.msg === 'mail sent')).toMatchObject({ to: 'bob@example.com' });
      expect(JSON.stringify(lines)).not.toContain('730155');
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  it('reports a delivery failure to the caller', async () => {
    const { log } = captureLog();
    // Port 9 (discard) on loopback: nothing listens there.
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:9', from: 'x@sunfleet.local', outboxDir: '/nonexistent', log });
    try {
      await expect(mailer.send(codeMail('c@example.com', '111111', 'signup', 'en'))).rejects.toThrow();
    } finally {
      mailer.close();
    }
  });
});

describe('a server without SMTP_URL', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ smtpUrl: null });
  });
  afterAll(() => s.close());

  it('puts the sign-up code in DATA_DIR/outbox, and nothing goes to SMTP', async () => {
    const account = uniqueAccount('outbox');
    expect((await s.call(null, 'GET', `/anonymous/getCode?account=${account}&type=signup`)).body.code).toBe(ErrorCode.ok);
    const outbox = path.join(s.config.dataDir, 'outbox');
    let eml: string | undefined;
    for (let i = 0; i < 50 && !eml; i++) {
      const file = fs.existsSync(outbox) ? fs.readdirSync(outbox).find((f) => f.endsWith('.eml')) : undefined;
      if (file) eml = fs.readFileSync(path.join(outbox, file), 'utf8');
      else await sleep(20);
    }
    expect(eml).toBeDefined();
    expect(eml).toContain(`To: ${account}`);
    const code = eml!.match(/verification code: (\d{6})/)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const check = await s.call(null, 'GET', `/anonymous/checkCode?account=${account}&type=signup&code=${code}`);
    expect(check.body.code).toBe(ErrorCode.ok);
    expect(s.smtp.messages).toHaveLength(0);
  });
});
