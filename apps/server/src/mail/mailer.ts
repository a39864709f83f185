/**
 * Outgoing e-mail through nodemailer. SMTP_URL selects a real server; without it each
 * message is written as an .eml file to the outbox folder under the data directory and
 * logged, so a developer can read the codes the portal sends.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function createMailer(opts: { smtpUrl: string | null; from: string; outboxDir: string; log: Logger }): Mailer {
  const transport: Transporter = opts.smtpUrl
    ? // Pooled: a burst of codes reuses a few connections instead of a handshake per mail.
      nodemailer.createTransport({ url: opts.smtpUrl, pool: true, maxConnections: 3 })
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: opts.from, ...mail });
      if (opts.smtpUrl) {
        // Not the subject: it carries the verification code, which has no place in production logs.
        opts.log.info({ to: mail.to, messageId: info.messageId }, 'mail sent');
        return;
      }
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const file = path.join(opts.outboxDir, `${Date.now()}-${info.messageId.replace(/[^A-Za-z0-9.-]/g, '')}.eml`);
      // Written aside, then renamed: a reader of the outbox never sees a half-written message.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer);
      await fs.rename(`${file}.tmp`, file);
      opts.log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to outbox (no SMTP_URL)');
    },
    close() {
      transport.close();
    },
  };
}
